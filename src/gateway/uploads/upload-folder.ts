import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  unlink,
} from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ConflictError, NotFoundError } from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { isStagingName, STAGING_PREFIX, STAGING_SUFFIX } from "./upload-name.js";

/** An uploaded file as it lies in the folder. */
export interface StoredUpload {
  filename: string;
  size: number;
  /** Seconds since the epoch, like the reference's `modified`. */
  modified: number;
}

/**
 * A thread's uploads folder on the host, proven to be a real folder under FAWN_HOME: no part of
 * `users/<user>/threads/<thread>/user-data/uploads` may be a symlink, so a link planted there
 * cannot send a write, a listing or a delete elsewhere. Every operation works on entries directly
 * inside it, by names `checkUploadName` accepted.
 */
export class UploadFolder {
  private constructor(readonly dir: string) {}

  /** The folder, created (with its parents) when missing. */
  static async create(paths: FawnPaths, scope: ThreadScope): Promise<UploadFolder> {
    await mkdir(paths.home, { recursive: true });
    const dir = await realDirectoryChain(paths, scope, true);
    if (dir === null) throw new ConflictError("The thread's uploads folder vanished; retry.");
    return new UploadFolder(dir);
  }

  /** The folder, or null when the thread has none yet (nothing was uploaded). */
  static async existing(paths: FawnPaths, scope: ThreadScope): Promise<UploadFolder | null> {
    const dir = await realDirectoryChain(paths, scope, false);
    return dir === null ? null : new UploadFolder(dir);
  }

  /** A new exclusive staging file; it becomes a named upload only through `publish`. */
  async stage(): Promise<StagedUpload> {
    const path = join(
      this.dir,
      `${STAGING_PREFIX}${randomBytes(12).toString("hex")}${STAGING_SUFFIX}`,
    );
    // O_EXCL | O_NOFOLLOW: a fresh file of ours, never something planted at that name.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    return new StagedUpload(path, await open(path, flags, 0o644));
  }

  /**
   * Renames finished staging files to their names. All destinations are checked first: an
   * existing regular file is replaced (rename swaps the directory entry, so a hard link elsewhere
   * keeps its old content), anything else at that name — a folder, a symlink — is a 409 and
   * nothing is published. Staging files not published are removed.
   */
  async publish(files: Array<{ staged: StagedUpload; filename: string }>): Promise<void> {
    try {
      for (const { filename } of files) {
        const existing = await lstatOrNull(join(this.dir, filename));
        if (existing !== null && !existing.isFile()) {
          throw new ConflictError(
            `Cannot store "${filename}": the uploads folder holds a folder or link of that name; delete it first or rename the file.`,
          );
        }
      }
      for (const { staged, filename } of files) await staged.publishAs(join(this.dir, filename));
    } finally {
      await Promise.all(files.map(({ staged }) => staged.discard()));
    }
  }

  /** Regular files, by name; staging files, folders and symlinks are not uploads. */
  async list(): Promise<StoredUpload[]> {
    const entries = await readdir(this.dir, { withFileTypes: true });
    const files = await Promise.all(
      entries
        .filter((entry) => entry.isFile() && !isStagingName(entry.name))
        .map(async (entry): Promise<StoredUpload | null> => {
          const stats = await lstatOrNull(join(this.dir, entry.name));
          if (stats === null || !stats.isFile()) return null;
          return { filename: entry.name, size: stats.size, modified: stats.mtimeMs / 1000 };
        }),
    );
    return files
      .filter((file): file is StoredUpload => file !== null)
      .sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  }

  /** Removes one uploaded file; a missing name, or one that is not a regular file, is a 404. */
  async delete(filename: string): Promise<void> {
    const path = join(this.dir, filename);
    const stats = await lstatOrNull(path);
    if (stats === null || !stats.isFile() || isStagingName(filename)) {
      throw new NotFoundError(
        `Upload not found: ${filename}; list the thread's uploads to see what is there.`,
      );
    }
    // unlink removes a directory entry; even if it were swapped for a link now, the target stays.
    await unlink(path).catch((error: unknown) => {
      if (errnoOf(error) === "ENOENT") throw new NotFoundError(`Upload not found: ${filename}.`);
      throw error;
    });
  }
}

/** Bytes on their way into a staging file. */
export class StagedUpload {
  private published = false;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await this.handle.write(chunk, offset, chunk.length - offset);
      offset += bytesWritten;
    }
  }

  /** Flushes to disk and closes, so a published upload is whole even after a crash. */
  async finish(): Promise<void> {
    await this.handle.sync();
    await this.close();
  }

  /** Renames the finished file into place (same folder, so atomic). */
  async publishAs(destination: string): Promise<void> {
    await rename(this.path, destination);
    this.published = true;
  }

  /** Closes and removes the staging file unless it was published. Safe to call twice. */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    if (!this.published) await unlink(this.path).catch(() => undefined);
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}

/**
 * Walks `users/<user>/threads/<thread>/user-data/uploads` down from FAWN_HOME with lstat,
 * creating missing folders one at a time when asked; any symlink or non-folder on the way is a
 * 409. Returns the folder's real path, or null when it is missing and `create` is false.
 */
async function realDirectoryChain(
  paths: FawnPaths,
  scope: ThreadScope,
  create: boolean,
): Promise<string | null> {
  const target = paths.threadPaths(scope).uploadsDir;
  const homeReal = await realpath(paths.home).catch(() => null);
  if (homeReal === null) return null;
  let current = homeReal;
  for (const segment of relative(paths.home, target).split(sep)) {
    current = join(current, segment);
    let stats = await lstatOrNull(current);
    if (stats === null) {
      if (!create) return null;
      await mkdir(current).catch((error: unknown) => {
        if (errnoOf(error) !== "EEXIST") throw error;
      });
      stats = await lstat(current);
    }
    if (!stats.isDirectory()) {
      throw new ConflictError(
        `The thread's uploads folder is not a plain folder (${segment} is a link or a file); an administrator must remove it.`,
      );
    }
  }
  return current;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return null;
    throw error;
  }
}

function errnoOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
