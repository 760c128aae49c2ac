import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/** Why an opened file is not the thread folder's own regular file. */
export type ForeignFile = "not_regular" | "hard_linked" | "other_device";

/**
 * Flags for opening a file found inside a thread folder: no following a final symlink, and
 * O_NONBLOCK so a FIFO planted there never holds a thread-pool thread waiting for a writer.
 */
export const THREAD_FILE_OPEN_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Judges the `fstat` of an opened file against the folder it was found in (not the path, which
 * the agent can swap). A path check proves where a name is, not where its data lives: a hard
 * link in the folder to a host file (the local provider's bash can make one) is that host file.
 * So only a regular file whose one link is this name, on the folder's device, is the thread's.
 */
export function foreignFileOf(opened: Stats, folder: Stats): ForeignFile | null {
  if (!opened.isFile()) return "not_regular";
  if (opened.nlink !== 1) return "hard_linked";
  if (opened.dev !== folder.dev) return "other_device";
  return null;
}

/** Opens `path` read-only with `THREAD_FILE_OPEN_FLAGS`; null when it cannot be opened. */
export function openThreadFile(path: string): Promise<FileHandle | null> {
  return open(path, THREAD_FILE_OPEN_FLAGS).catch(() => null);
}
