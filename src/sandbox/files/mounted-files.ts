import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { publishFileAtomically } from "../../core/atomic-file.js";
import { PathEscapeError } from "../../core/errors.js";
import type { DirEntry, GlobOptions, GlobResult, GrepOptions, GrepResult } from "../sandbox.js";
import {
  InvalidRegexError,
  SandboxDirectoryNotFoundError,
  SandboxFileNotFoundError,
  SandboxFileTooLargeError,
  SandboxIsADirectoryError,
  SandboxNotADirectoryError,
  SandboxNotTextError,
  SandboxReadOnlyError,
  StringNotFoundError,
} from "../sandbox-errors.js";
import { errnoCode, SandboxNotRegularFileError, toSandboxFileError } from "./fs-error-mapping.js";
import { compileGlob, compilePathFilter } from "./glob-pattern.js";
import { type GrepFile, runGrepJob } from "./grep-worker.js";
import type { MountTable, ResolvedPath } from "./mount-table.js";
import { capMaxResults, GLOB_RESULT_LIMITS, GREP_RESULT_LIMITS } from "./search-limits.js";
import { isInside, walkTree } from "./tree-walk.js";

export const MAX_READ_BYTES = 100 * 1024 * 1024;
const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
const GREP_MAX_FILES = 20_000;
const GREP_LINE_CHARS = 500;
const SEARCH_MAX_DEPTH = 32;

/** Writes to one host file run one at a time across every sandbox of the process. */
const fileLocks = new KeyedMutex<string>();

export interface MountedFilesOptions {
  maxReadBytes?: number;
  grepTimeoutMs?: number;
}

interface ExistingPath extends ResolvedPath {
  /** realpath of the target, proven inside its mount. */
  real: string;
  rootReal: string;
}

/**
 * File operations of a sandbox, done on the host folders behind its mounts. Every path is
 * realpath-resolved and must stay inside its own mount, so a symlink — even one planted by code
 * running in the sandbox — cannot lead outside; read-only mounts refuse writes (EROFS wording).
 * Errors name the path the caller gave, never a host path.
 */
export class MountedFiles {
  private readonly maxReadBytes: number;
  private readonly grepTimeoutMs: number;

  constructor(
    private readonly table: MountTable,
    options: MountedFilesOptions = {},
  ) {
    this.maxReadBytes = options.maxReadBytes ?? MAX_READ_BYTES;
    this.grepTimeoutMs = options.grepTimeoutMs ?? 20_000;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const target = await this.resolveExisting(path, "file");
    // O_NONBLOCK: a FIFO planted in the folder must not hold a thread-pool thread forever
    // waiting for a writer; what was opened is checked, not what a path said a moment before.
    const handle = await open(target.real, constants.O_RDONLY | constants.O_NONBLOCK).catch(
      (error: unknown) => {
        throw toSandboxFileError(error, path);
      },
    );
    try {
      const info = await handle.stat();
      if (info.isDirectory()) throw new SandboxIsADirectoryError(path);
      if (!info.isFile()) throw new SandboxNotRegularFileError(path);
      if (info.size > this.maxReadBytes) {
        throw new SandboxFileTooLargeError(path, this.maxReadBytes);
      }
      return new Uint8Array(await handle.readFile());
    } catch (error) {
      throw toSandboxFileError(error, path);
    } finally {
      await handle.close();
    }
  }

  async readTextFile(path: string): Promise<string> {
    const bytes = await this.readFile(path);
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new SandboxNotTextError(path);
    }
  }

  async writeFile(
    path: string,
    data: string | Uint8Array,
    options: { append?: boolean } = {},
  ): Promise<void> {
    const target = await this.resolveForWrite(path);
    await fileLocks.runExclusive(target, async () => {
      try {
        if (options.append) await appendRegularFile(target, data, path);
        else await publishFileAtomically(target, data, { mode: await existingMode(target) });
      } catch (error) {
        throw toSandboxFileError(error, path);
      }
    });
  }

  async replaceInFile(
    path: string,
    oldText: string,
    newText: string,
    options: { replaceAll?: boolean } = {},
  ): Promise<number> {
    if (oldText === "") return 0;
    const resolved = this.table.resolve(path);
    if (resolved.mount.readOnly) throw new SandboxReadOnlyError(path);
    const target = await this.resolveExisting(path, "file");
    return fileLocks.runExclusive(target.real, async () => {
      const text = await this.readTextFile(path);
      const first = text.indexOf(oldText);
      if (first === -1) throw new StringNotFoundError(path);
      let count = 1;
      let updated: string;
      if (options.replaceAll) {
        const parts = text.split(oldText);
        count = parts.length - 1;
        updated = parts.join(newText);
      } else {
        updated = text.slice(0, first) + newText + text.slice(first + oldText.length);
      }
      try {
        await publishFileAtomically(target.real, updated, {
          mode: await existingMode(target.real),
        });
      } catch (error) {
        throw toSandboxFileError(error, path);
      }
      return count;
    });
  }

  async listDir(path: string, options: { maxDepth?: number } = {}): Promise<DirEntry[]> {
    const root = await this.resolveDirectory(path);
    const entries: DirEntry[] = [];
    for await (const entry of walkTree(root.real, {
      boundaryReal: root.rootReal,
      maxDepth: Math.max(1, options.maxDepth ?? 2),
    })) {
      entries.push({
        path: joinVirtual(root.virtualPath, entry.relativePath),
        type: entry.isSymlink ? "symlink" : entry.type,
        depth: entry.depth,
      });
    }
    return entries;
  }

  async glob(path: string, pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const root = await this.resolveDirectory(path);
    const matches = compileGlob(relativePattern(pattern, root.virtualPath));
    const limit = capMaxResults(options.maxResults, GLOB_RESULT_LIMITS);
    const paths: string[] = [];
    for await (const entry of walkTree(root.real, {
      boundaryReal: root.rootReal,
      maxDepth: SEARCH_MAX_DEPTH,
    })) {
      if (entry.type === "directory" && !options.includeDirs) continue;
      if (!matches(entry.relativePath)) continue;
      if (paths.length >= limit) return { paths, truncated: true };
      paths.push(joinVirtual(root.virtualPath, entry.relativePath));
    }
    return { paths, truncated: false };
  }

  async grep(path: string, pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    const flags = options.caseSensitive ? "u" : "iu";
    const source = options.literal ? pattern.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&") : pattern;
    try {
      new RegExp(source, flags);
    } catch (error) {
      throw new InvalidRegexError(error instanceof Error ? error.message : String(error));
    }
    const files = await this.grepFiles(path, options.glob);
    const maxResults = capMaxResults(options.maxResults, GREP_RESULT_LIMITS);
    return runGrepJob(
      {
        files,
        source,
        flags,
        maxResults,
        maxLineChars: GREP_LINE_CHARS,
        maxFileBytes: GREP_MAX_FILE_BYTES,
      },
      this.grepTimeoutMs,
    );
  }

  private async grepFiles(path: string, glob: string | undefined): Promise<GrepFile[]> {
    const target = await this.resolveExisting(path, "directory");
    const info = await stat(target.real);
    if (!info.isDirectory()) {
      if (!info.isFile()) throw new SandboxNotRegularFileError(path);
      return [{ hostPath: target.real, virtualPath: target.virtualPath }];
    }
    const include = glob ? compilePathFilter(glob) : () => true;
    const files: GrepFile[] = [];
    for await (const entry of walkTree(target.real, {
      boundaryReal: target.rootReal,
      maxDepth: SEARCH_MAX_DEPTH,
    })) {
      if (entry.type !== "file" || !include(entry.relativePath)) continue;
      files.push({
        hostPath: entry.hostPath,
        virtualPath: joinVirtual(target.virtualPath, entry.relativePath),
      });
      if (files.length >= GREP_MAX_FILES) break;
    }
    return files;
  }

  private async resolveDirectory(path: string): Promise<ExistingPath> {
    const target = await this.resolveExisting(path, "directory");
    const info = await stat(target.real);
    if (!info.isDirectory()) throw new SandboxNotADirectoryError(path);
    return target;
  }

  /** The target's realpath, proven inside its mount; a missing target is a not-found error. */
  private async resolveExisting(path: string, kind: "file" | "directory"): Promise<ExistingPath> {
    const resolved = this.table.resolve(path);
    const missing = (): Error =>
      kind === "file"
        ? new SandboxFileNotFoundError(path)
        : new SandboxDirectoryNotFoundError(path);
    const rootReal = await realpath(resolved.mount.hostPath).catch(() => null);
    if (rootReal === null) throw missing();
    let real: string;
    try {
      real = await realpath(resolved.hostPath);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") throw missing();
      throw toSandboxFileError(error, path, kind);
    }
    if (!isInside(rootReal, real)) throw new PathEscapeError(path);
    return { ...resolved, real, rootReal };
  }

  /**
   * The host file a write should go to: parents created inside the mount (each existing ancestor
   * proven inside before and after), an existing symlink followed only when it stays inside.
   */
  private async resolveForWrite(path: string): Promise<string> {
    const resolved = this.table.resolve(path);
    if (resolved.mount.readOnly) throw new SandboxReadOnlyError(path);
    const name = resolved.segments.at(-1);
    if (name === undefined) throw new SandboxIsADirectoryError(path);
    const rootReal = await realpath(resolved.mount.hostPath).catch((error: unknown) => {
      throw toSandboxFileError(error, path, "directory");
    });
    const parents = resolved.segments.slice(0, -1);
    await assertDeepestAncestorInside(rootReal, parents, path);
    const parent = join(rootReal, ...parents);
    try {
      await mkdir(parent, { recursive: true });
    } catch (error) {
      throw toSandboxFileError(error, path, "directory");
    }
    const parentReal = await realpath(parent).catch((error: unknown) => {
      throw toSandboxFileError(error, path, "directory");
    });
    if (!isInside(rootReal, parentReal)) throw new PathEscapeError(path);
    const target = join(parentReal, name);
    const link = await lstat(target).catch(() => null);
    if (link?.isDirectory()) throw new SandboxIsADirectoryError(path);
    if (!link?.isSymbolicLink()) return target;
    const real = await realpath(target).catch(() => null);
    // A dangling link would be followed by appendFile and replaced by a rename: refuse both.
    if (real === null || !isInside(rootReal, real)) throw new PathEscapeError(path);
    return real;
  }
}

async function assertDeepestAncestorInside(
  rootReal: string,
  parents: string[],
  shownPath: string,
): Promise<void> {
  for (let depth = parents.length; depth > 0; depth -= 1) {
    const candidate = join(rootReal, ...parents.slice(0, depth));
    const real = await realpath(candidate).catch(() => null);
    if (real !== null) {
      if (!isInside(rootReal, real)) throw new PathEscapeError(shownPath);
      return;
    }
    const link = await lstat(candidate).catch(() => null);
    if (link?.isSymbolicLink()) throw new PathEscapeError(shownPath);
  }
}

/**
 * Appends without blocking on a FIFO (O_NONBLOCK: no reader is ENXIO, not a wait) and only to a
 * regular file, as fstat of the opened descriptor shows.
 */
async function appendRegularFile(
  hostPath: string,
  data: string | Uint8Array,
  shownPath: string,
): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK;
  const handle = await open(hostPath, flags, 0o666);
  try {
    if (!(await handle.stat()).isFile()) throw new SandboxNotRegularFileError(shownPath);
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Keeps an existing file's permission bits (an executable script stays executable). */
async function existingMode(hostPath: string): Promise<number | undefined> {
  const info = await stat(hostPath).catch(() => null);
  return info?.isFile() ? info.mode & 0o7777 : undefined;
}

function joinVirtual(base: string, relativePath: string): string {
  return relativePath === "" ? base : `${base}/${relativePath}`;
}

/** `/mnt/user-data/workspace/**\/*.md` under root `/mnt/user-data/workspace` → `**\/*.md`. */
function relativePattern(pattern: string, rootVirtual: string): string {
  if (pattern.startsWith(`${rootVirtual}/`)) return pattern.slice(rootVirtual.length + 1);
  return pattern.replace(/^\/+/, "");
}
