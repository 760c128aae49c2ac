import {
  SandboxDirectoryNotFoundError,
  SandboxFileError,
  SandboxFileNotFoundError,
  SandboxIsADirectoryError,
  SandboxNotADirectoryError,
  SandboxPermissionError,
  SandboxReadOnlyError,
} from "../sandbox-errors.js";

/** A pipe, socket or device where a file was expected (it could block a read forever). */
export class SandboxNotRegularFileError extends SandboxFileError {
  constructor(path: string) {
    super(
      "bad_request",
      `Not a regular file (a pipe, socket or device): ${path}. Only regular files can be read or written.`,
    );
  }
}

/** A path or one of its names longer than the filesystem allows. */
export class SandboxNameTooLongError extends SandboxFileError {
  constructor(path: string) {
    super("bad_request", `File name too long: ${path}. Use names of at most 255 bytes.`);
  }
}

export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/**
 * Turns a Node fs error into the sandbox error the tools word for the model, naming the path the
 * model gave. Unknown errors pass through (the tool reports them as unexpected, masked).
 */
export function toSandboxFileError(
  error: unknown,
  shownPath: string,
  target: "file" | "directory" = "file",
): unknown {
  switch (errnoCode(error)) {
    case "ENOENT":
    case "ENOTDIR":
    // A symlink loop leads nowhere: to the caller it is a missing file.
    case "ELOOP":
      return target === "file"
        ? new SandboxFileNotFoundError(shownPath)
        : new SandboxDirectoryNotFoundError(shownPath);
    case "EACCES":
    case "EPERM":
      return new SandboxPermissionError(shownPath);
    case "EROFS":
      return new SandboxReadOnlyError(shownPath);
    case "ENAMETOOLONG":
      return new SandboxNameTooLongError(shownPath);
    case "ENXIO":
      // Opening a FIFO without a reader (O_NONBLOCK) or a socket.
      return new SandboxNotRegularFileError(shownPath);
    case "EISDIR":
      return target === "file"
        ? new SandboxIsADirectoryError(shownPath)
        : new SandboxNotADirectoryError(shownPath);
    default:
      return error;
  }
}
