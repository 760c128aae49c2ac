import { constants } from "node:fs";
import { lstat, mkdir, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { isStagingName } from "../uploads/upload-name.js";

/** A copy stops after this many entries; the branch keeps what was copied. */
const MAX_COPIED_ENTRIES = 5000;

export type BranchFilesMode = "current_thread_best_effort" | "not_found" | "failed";

/**
 * Copies a thread's user-data folder (workspace, uploads, outputs) to a branch's, best effort:
 * only plain folders and regular files with one link on the folder's device are copied (a
 * symlink or a hard link could name a host file), upload staging files are left out, and at most
 * `MAX_COPIED_ENTRIES` entries are copied.
 */
export async function copyBranchFiles(from: string, to: string): Promise<BranchFilesMode> {
  const root = await lstat(from).catch(() => null);
  if (root === null || !root.isDirectory()) return "not_found";
  const budget = { left: MAX_COPIED_ENTRIES };
  try {
    await copyFolder(from, to, root.dev, budget);
    return "current_thread_best_effort";
  } catch {
    return "failed";
  }
}

async function copyFolder(
  from: string,
  to: string,
  dev: number,
  budget: { left: number },
): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (budget.left <= 0) return;
    budget.left -= 1;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      const stats = await lstat(source);
      if (stats.isDirectory() && stats.dev === dev) await copyFolder(source, target, dev, budget);
    } else if (entry.isFile() && !isStagingName(entry.name)) {
      await copyOwnFile(source, target, dev);
    }
  }
}

/** Opened without following links and judged by the open file, not the name (which can move). */
async function copyOwnFile(source: string, target: string, dev: number): Promise<void> {
  const handle = await open(
    source,
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => null);
  if (handle === null) return;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.nlink !== 1 || stats.dev !== dev) return;
    const out = await open(target, "wx", stats.mode & 0o777);
    await pipeline(handle.createReadStream({ autoClose: false }), out.createWriteStream());
  } finally {
    await handle.close();
  }
}
