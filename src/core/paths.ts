import { mkdir, rm } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { PathEscapeError, ValidationError } from "./errors.js";
import { assertValidId, isValidId } from "./ids.js";

/** Where a thread's files appear inside a sandbox; the host side is under FAWN_HOME. */
export const VIRTUAL_USER_DATA = "/mnt/user-data";
export const USER_DATA_SUBDIRS = ["workspace", "uploads", "outputs"] as const;
export type UserDataSubdir = (typeof USER_DATA_SUBDIRS)[number];

/** The user a request acts for when no identity is known (auth disabled). */
export const DEFAULT_USER_ID = "default";

export interface ThreadScope {
  userId: string;
  threadId: string;
}

export interface ThreadPaths {
  threadDir: string;
  userDataDir: string;
  workspaceDir: string;
  uploadsDir: string;
  outputsDir: string;
}

/**
 * Host locations of everything Fawn keeps under FAWN_HOME, and the mapping between a thread's
 * virtual `/mnt/user-data/...` paths and host paths. Every id is validated before it becomes a
 * path segment, and every mapping refuses to leave the thread's user-data folder.
 */
export class FawnPaths {
  readonly home: string;

  constructor(home: string) {
    this.home = resolve(home);
  }

  usersDir(): string {
    return join(this.home, "users");
  }

  userDir(userId: string): string {
    return join(this.usersDir(), assertValidUserId(userId));
  }

  threadDir(scope: ThreadScope): string {
    return join(this.userDir(scope.userId), "threads", assertValidId("thread", scope.threadId));
  }

  threadPaths(scope: ThreadScope): ThreadPaths {
    const threadDir = this.threadDir(scope);
    const userDataDir = join(threadDir, "user-data");
    return {
      threadDir,
      userDataDir,
      workspaceDir: join(userDataDir, "workspace"),
      uploadsDir: join(userDataDir, "uploads"),
      outputsDir: join(userDataDir, "outputs"),
    };
  }

  /** Creates the thread's workspace, uploads and outputs folders (idempotent). */
  async ensureThreadDirs(scope: ThreadScope): Promise<ThreadPaths> {
    const paths = this.threadPaths(scope);
    await Promise.all(
      [paths.workspaceDir, paths.uploadsDir, paths.outputsDir].map((dir) =>
        mkdir(dir, { recursive: true }),
      ),
    );
    return paths;
  }

  async deleteThreadDir(scope: ThreadScope): Promise<void> {
    await rm(this.threadDir(scope), { recursive: true, force: true });
  }

  /** `/mnt/user-data/outputs/report.md` → the host file of that thread. */
  resolveVirtualPath(scope: ThreadScope, virtualPath: string): string {
    const segments = splitVirtualPath(virtualPath);
    return resolveInside(this.threadPaths(scope).userDataDir, segments.join("/"), virtualPath);
  }

  /** The inverse of `resolveVirtualPath`: a host path inside the thread's user data → virtual. */
  toVirtualPath(scope: ThreadScope, hostPath: string): string {
    if (!isAbsolute(hostPath)) throw new PathEscapeError(hostPath);
    const root = this.threadPaths(scope).userDataDir;
    const rel = relative(root, resolve(hostPath));
    if (rel === "") return VIRTUAL_USER_DATA;
    if (isOutside(rel)) throw new PathEscapeError(hostPath);
    return `${VIRTUAL_USER_DATA}/${rel.split(sep).join("/")}`;
  }
}

/**
 * Joins a relative path under `root` and proves the result stays inside it. Any `..` segment is
 * refused outright, even one that would land back inside: such paths are never legitimate input.
 */
export function resolveInside(root: string, relativePath: string, shownAs = relativePath): string {
  if (relativePath.includes("\0") || isAbsolute(relativePath)) throw new PathEscapeError(shownAs);
  if (relativePath.split(/[/\\]/).includes("..")) throw new PathEscapeError(shownAs);
  const base = resolve(root);
  const target = resolve(base, relativePath);
  const rel = relative(base, target);
  if (rel !== "" && isOutside(rel)) throw new PathEscapeError(shownAs);
  return target;
}

/** The segments after `/mnt/user-data`; the prefix must match whole segments (not `user-dataX`). */
function splitVirtualPath(virtualPath: string): string[] {
  const segments = virtualPath.split("/").filter((s) => s !== "" && s !== ".");
  if (segments[0] !== "mnt" || segments[1] !== "user-data") throw new PathEscapeError(virtualPath);
  return segments.slice(2);
}

function isOutside(rel: string): boolean {
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

function assertValidUserId(userId: string): string {
  if (!isValidId(userId)) {
    throw new ValidationError(
      'Invalid user id; use 1-64 characters of letters, digits, "_" or "-".',
    );
  }
  return userId;
}
