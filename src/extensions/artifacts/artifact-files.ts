import { createHash, randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, mkdir, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { AgentRunError } from "../../core/errors.js";
import { foreignFileOf, THREAD_FILE_OPEN_FLAGS } from "../../core/thread-file-identity.js";

/**
 * File steps of an artifact hand-off, inside one folder proven free of symlinks. Nothing here
 * follows a link: folders are checked with `lstat`, files are opened `O_NOFOLLOW` and judged by
 * the `fstat` of the opened handle.
 */

/** Staging files share the uploads folder's reserved prefix, so upload listings hide them. */
const STAGING_PREFIX = ".upload-";
const STAGING_SUFFIX = ".part";

export function sha256Hex(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * The caller gave up on the transfer: a 409 (nothing changed, the caller may retry), checked
 * between steps because a started file operation cannot be interrupted.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) {
    throw new AgentRunError(409, "The file transfer was aborted; nothing was changed", {
      cause: signal.reason,
    });
  }
}

/**
 * `base/<segments…>` as a real folder chain: each step below `base` must be a folder, not a link.
 * With `create`, missing steps are made; without, a missing step answers null.
 */
export async function folderChain(
  base: string,
  segments: readonly string[],
  create: boolean,
): Promise<{ dir: string; stat: Stats } | null> {
  if (create) await mkdir(base, { recursive: true });
  let dir = base;
  let stat = await lstat(dir).catch(() => null);
  if (stat === null || !stat.isDirectory()) return null;
  for (const segment of segments) {
    dir = join(dir, segment);
    if (create) await mkdir(dir).catch(ignoreExists);
    stat = await lstat(dir).catch(() => null);
    if (stat === null) return null;
    if (!stat.isDirectory() || stat.isSymbolicLink()) {
      throw new AgentRunError(
        409,
        "The thread's folder holds a link or file where a folder belongs",
      );
    }
  }
  return { dir, stat };
}

/**
 * The bytes of `name` directly inside `folder` (a regular file with one link, on the folder's
 * device), or null when nothing is there. Anything else at that name is a 409; larger than
 * `maxBytes` is a 413.
 */
export async function readFileIn(
  folder: { dir: string; stat: Stats },
  name: string,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const path = join(folder.dir, name);
  const handle = await open(path, THREAD_FILE_OPEN_FLAGS).catch((error: unknown) => {
    if (errorCode(error) === "ENOENT") return null;
    throw new AgentRunError(409, `The thread holds something other than a plain file at ${name}`);
  });
  if (handle === null) return null;
  try {
    const opened = await handle.stat();
    if (foreignFileOf(opened, folder.stat) !== null) {
      throw new AgentRunError(409, `The thread holds something other than a plain file at ${name}`);
    }
    if (opened.size > maxBytes) {
      throw new AgentRunError(413, `The file ${name} is larger than ${maxBytes} bytes`);
    }
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/**
 * Store `content` as `name` in `folder` unless a file is there already: written whole or not at
 * all (staged, then hard-linked into place, which never replaces an existing entry). Answers what
 * was found: nothing (now written), the same bytes, or different ones (left untouched). An aborted
 * `signal` is honoured up to the link: the staged copy is removed and nothing is written.
 */
export async function writeFileOnce(
  folder: { dir: string; stat: Stats },
  name: string,
  content: Uint8Array,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<"written" | "same" | "changed"> {
  const digest = sha256Hex(content);
  const compare = async (): Promise<"same" | "changed" | null> => {
    const existing = await readFileIn(folder, name, maxBytes);
    if (existing === null) return null;
    return sha256Hex(existing) === digest ? "same" : "changed";
  };
  const found = await compare();
  if (found !== null) return found;
  throwIfAborted(signal);
  const staged = join(
    folder.dir,
    `${STAGING_PREFIX}${randomBytes(12).toString("hex")}${STAGING_SUFFIX}`,
  );
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(staged, flags, 0o644);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    throwIfAborted(signal);
    try {
      await link(staged, join(folder.dir, name));
      return "written";
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
      // Someone stored that name between our check and the link: judge what is there now.
      return (await compare()) ?? "changed";
    }
  } finally {
    await unlink(staged).catch(() => undefined);
  }
}

function ignoreExists(error: unknown): void {
  if (errorCode(error) !== "EEXIST") throw error;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
