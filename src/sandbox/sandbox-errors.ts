/**
 * Errors of the sandbox layer. Each message is the text the agent's tools show after `Error: `
 *, and echoes the path the model supplied, never a host path.
 */
import { FawnError, type FawnErrorOptions } from "../core/errors.js";

/** A sandbox could not be started, reached or used (its runtime is missing or broken). */
export class SandboxUnavailableError extends FawnError {
  constructor(message: string, options: FawnErrorOptions = {}) {
    super("internal", message, { status: 503, ...options });
  }
}

/** `get(id)` style lookups of an id this process does not track. */
export class SandboxNotFoundError extends FawnError {
  constructor(sandboxId: string) {
    super("not_found", `Sandbox ${sandboxId} is not active in this process; acquire it first.`);
  }
}

/** The command was refused before it ran (host bash disabled, unsafe paths, bad env names). */
export class SandboxCommandRefusedError extends FawnError {
  constructor(message: string) {
    super("forbidden", message);
  }
}

/** A peer is tearing this sandbox down; the caller may retry shortly. */
export class SandboxBeingDestroyedError extends FawnError {
  constructor(sandboxId: string) {
    super(
      "conflict",
      `Sandbox ${sandboxId} is being destroyed by another process; retry shortly.`,
      {
        details: { retryable: true },
      },
    );
  }
}

/** A deterministic id is already tracked for another user or thread: fail closed. */
export class SandboxIdentityCollisionError extends FawnError {
  constructor(sandboxId: string) {
    super(
      "conflict",
      `Sandbox id ${sandboxId} is already in use by another thread; refusing to share it.`,
    );
  }
}

/** Base of file errors whose message is the tool's wording. */
export class SandboxFileError extends FawnError {}

export class SandboxFileNotFoundError extends SandboxFileError {
  constructor(path: string) {
    super("not_found", `File not found: ${path}`);
  }
}

export class SandboxDirectoryNotFoundError extends SandboxFileError {
  constructor(path: string) {
    super("not_found", `Directory not found: ${path}`);
  }
}

export class SandboxNotADirectoryError extends SandboxFileError {
  constructor(path: string) {
    super("bad_request", `Path is not a directory: ${path}`);
  }
}

export class SandboxIsADirectoryError extends SandboxFileError {
  constructor(path: string) {
    super("bad_request", `Path is a directory, not a file: ${path}`);
  }
}

export class SandboxPermissionError extends SandboxFileError {
  constructor(path: string) {
    super("forbidden", `Permission denied: ${path}`);
  }
}

/** EROFS: uploads and skills are mounted read-only in every provider. */
export class SandboxReadOnlyError extends SandboxFileError {
  constructor(path: string) {
    super("forbidden", `Read-only file system: ${path}`);
  }
}

export class SandboxFileTooLargeError extends SandboxFileError {
  constructor(path: string, limitBytes: number) {
    super("bad_request", `File is larger than ${limitBytes} bytes: ${path}`);
  }
}

export class SandboxNotTextError extends SandboxFileError {
  constructor(path: string) {
    super(
      "bad_request",
      `File is not UTF-8 text: ${path}. Inspect it with bash (for example a Python library for its format), or use view_image for images.`,
    );
  }
}

export class StringNotFoundError extends SandboxFileError {
  constructor(path: string) {
    super("bad_request", `String to replace not found in file: ${path}`);
  }
}

export class InvalidRegexError extends FawnError {
  constructor(why: string) {
    super("bad_request", `Invalid regex pattern: ${why}`);
  }
}
