import {
  SandboxDirectoryNotFoundError,
  SandboxFileNotFoundError,
  SandboxIsADirectoryError,
  SandboxNotADirectoryError,
  SandboxPermissionError,
  SandboxReadOnlyError,
} from "../sandbox-errors.js";

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
      return target === "file"
        ? new SandboxFileNotFoundError(shownPath)
        : new SandboxDirectoryNotFoundError(shownPath);
    case "EACCES":
    case "EPERM":
      return new SandboxPermissionError(shownPath);
    case "EROFS":
      return new SandboxReadOnlyError(shownPath);
    case "EISDIR":
      return target === "file"
        ? new SandboxIsADirectoryError(shownPath)
        : new SandboxNotADirectoryError(shownPath);
    default:
      return error;
  }
}
