import { isFawnError } from "../../../core/errors.js";
import { VIRTUAL_USER_DATA } from "../../../core/paths.js";
import {
  describeSandboxFailure,
  middleTruncate,
  type Sandbox,
  SandboxReadOnlyError,
  VIRTUAL_SKILLS,
} from "../../../sandbox/index.js";

const MAX_ERROR_CHARS = 2_000;
const ALLOWED_ROOTS = [VIRTUAL_USER_DATA, VIRTUAL_SKILLS];

export const ONLY_ALLOWED_PATHS =
  "Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed";

/**
 * The text a refused path gets, echoing the path the model gave:
 * traversal (`..`, NUL) and escapes out of an allowed folder are "Permission denied"; anything
 * outside every allowed folder (or relative) is told where it may go instead.
 */
export function describePathRefusal(path: string): string {
  const traversal =
    path.includes("\0") ||
    path.split("/").some((segment) => segment === ".." || segment.split("\\").includes(".."));
  if (traversal) return `Error: Permission denied: ${path}`;
  const underAllowed = ALLOWED_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
  if (!path.startsWith("/") || !underAllowed) return `Error: ${ONLY_ALLOWED_PATHS}: ${path}`;
  return `Error: Permission denied: ${path}`;
}

/**
 * A failed tool call as text: path escapes in the reference's wording, typed sandbox errors with
 * their message, anything else as `Unexpected error <doingWhat>` with host paths masked.
 */
export function describeToolFailure(
  error: unknown,
  context: { doingWhat: string; path?: string; sandbox?: Sandbox },
): string {
  if (isPathEscape(error) && context.path !== undefined) {
    return middleTruncate(describePathRefusal(context.path), MAX_ERROR_CHARS);
  }
  const { sandbox } = context;
  return describeSandboxFailure(
    error,
    context.doingWhat,
    sandbox ? (text) => sandbox.maskHostPaths(text) : undefined,
  );
}

/**
 * write_file / str_replace failures: refusals and known file errors keep their own wording; a
 * read-only folder says where writes go; anything else is `Failed to write file '<path>'`.
 */
export function describeWriteFailure(error: unknown, path: string, sandbox: Sandbox): string {
  if (isPathEscape(error)) return middleTruncate(describePathRefusal(path), MAX_ERROR_CHARS);
  if (error instanceof SandboxReadOnlyError) {
    return `Error: Read-only file system: ${path}. Write under /mnt/user-data/workspace or /mnt/user-data/outputs.`;
  }
  if (isFawnError(error)) {
    return describeSandboxFailure(error, "writing file", (text) => sandbox.maskHostPaths(text));
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return middleTruncate(
    `Error: Failed to write file '${path}': ${sandbox.maskHostPaths(detail)}`,
    MAX_ERROR_CHARS,
  );
}

function isPathEscape(error: unknown): boolean {
  return isFawnError(error) && error.code === "path_escape";
}
