import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { DirEntryType } from "../sandbox.js";

/** Names never worth showing to the model or searching (reference: `ls` noise names). */
export const NOISE_NAMES: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "__pycache__",
  ".venv",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".DS_Store",
  ".tox",
]);

export interface WalkedEntry {
  /** `/`-separated path below the walk's root. */
  relativePath: string;
  /** Host path to open: for an in-bounds symlink, its resolved target. */
  hostPath: string;
  /** For a symlink, the type of what it points to. */
  type: DirEntryType;
  isSymlink: boolean;
  depth: number;
}

export interface WalkOptions {
  /** Symlinks whose target leaves this host folder (a realpath) are skipped. */
  boundaryReal: string;
  maxDepth: number;
  /** Stops after visiting this many entries, so a huge tree cannot stall a tool call. */
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 50_000;

/**
 * Walks a host folder depth-first in name order. Symlinks are never followed into folders (no
 * loops) and are reported only when they resolve inside the boundary; noise names are skipped.
 */
export async function* walkTree(
  rootHost: string,
  options: WalkOptions,
): AsyncGenerator<WalkedEntry> {
  let budget = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  async function* visit(dir: string, prefix: string, depth: number): AsyncGenerator<WalkedEntry> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // Vanished or unreadable below the root: nothing to report there.
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (NOISE_NAMES.has(entry.name)) continue;
      budget -= 1;
      if (budget < 0) return;
      const hostPath = join(dir, entry.name);
      const relativePath = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const target = await resolveInside(hostPath, options.boundaryReal);
        if (target !== null) {
          yield { relativePath, hostPath: target.path, type: target.type, isSymlink: true, depth };
        }
        continue;
      }
      const type: DirEntryType = entry.isDirectory()
        ? "directory"
        : entry.isFile()
          ? "file"
          : "other";
      yield { relativePath, hostPath, type, isSymlink: false, depth };
      if (type === "directory" && depth < options.maxDepth) {
        yield* visit(hostPath, relativePath, depth + 1);
      }
    }
  }
  yield* visit(rootHost, "", 1);
}

async function resolveInside(
  link: string,
  boundaryReal: string,
): Promise<{ path: string; type: DirEntryType } | null> {
  const target = await realpath(link).catch(() => null);
  if (target === null || !isInside(boundaryReal, target)) return null;
  const info = await stat(target).catch(() => null);
  if (info === null) return null;
  return {
    path: target,
    type: info.isDirectory() ? "directory" : info.isFile() ? "file" : "other",
  };
}

export function isInside(rootReal: string, candidate: string): boolean {
  const rel = relative(rootReal, candidate);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}
