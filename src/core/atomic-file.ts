import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The part of an open file that publication uses; narrow so tests can inject faults. */
export interface PublishHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** File operations publication goes through; defaults are `fs/promises`. */
export interface PublishFileOps {
  open(path: string, flags: string, mode: number): Promise<PublishHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const defaultPublishFileOps: PublishFileOps = { open, rename, unlink };

export interface PublishOptions {
  /** Permission bits before the umask applies (default 0o666, like any newly created file). */
  mode?: number;
  /** Fault-injection seam for tests. */
  ops?: PublishFileOps;
  /** The random part of the temp name; injectable so a test can force a collision. */
  randomSuffix?: () => string;
}

/**
 * Publishes `data` at `path` so a reader sees either the previous file or the whole new one,
 * never a prefix: write a temp file in the same directory (same filesystem, so rename is atomic),
 * fsync it, rename it over the target. The temp file is created exclusively (`wx`), so it is ours;
 * on any failure we remove only that file, never the target and never another writer's temp.
 */
export async function publishFileAtomically(
  path: string,
  data: string | Uint8Array,
  options: PublishOptions = {},
): Promise<void> {
  const ops = options.ops ?? defaultPublishFileOps;
  const suffix = options.randomSuffix?.() ?? randomBytes(8).toString("hex");
  const tempPath = join(dirname(path), `.${basename(path)}.${suffix}.tmp`);

  // A failure here (including EEXIST from a colliding name) means no temp file of ours exists.
  const handle = await ops.open(tempPath, "wx", options.mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      // Report the write failure, not a follow-on failure to close.
      await handle.close().catch(() => undefined);
      throw error;
    }
    await handle.close();
    await ops.rename(tempPath, path);
  } catch (error) {
    await ops.unlink(tempPath).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/**
 * Makes the rename itself durable across a crash. Best effort: some filesystems refuse to fsync
 * a directory, and by now the file is already published, so a failure here is not a failed publish.
 */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the directory entry is a bonus, not part of the atomicity contract.
  }
}
