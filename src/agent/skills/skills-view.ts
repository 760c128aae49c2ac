import { lstat, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { publishFileAtomically } from "../../core/atomic-file.js";
import type { Logger } from "../../core/logger.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { threadSkillsViewDir } from "../../sandbox/lifecycle/sandbox-id.js";
import { SKILL_FILE, type Skill } from "./skill.js";

/** A skill file larger than this is not projected (skills are instructions and small scripts). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** At most this many files per skill are projected. */
const MAX_FILES_PER_SKILL = 2000;

const viewLocks = new KeyedMutex<string>();

interface ProjectedFile {
  read(): Promise<Buffer>;
  mode: number;
}

export interface SkillsViewChanges {
  written: number;
  removed: number;
}

/**
 * Makes the thread's skills view (`<thread>/skills_view`, which every provider mounts read-only
 * at /mnt/skills) hold exactly the given skills, at `<category>/<relative dir>/`. Each file is
 * published atomically and only when it changed; files of skills no longer enabled are removed.
 * The view folder itself is never replaced, so a running sandbox that bind-mounted it sees the
 * new contents. Symlinks, hidden entries and oversized files are not copied: a skill cannot
 * smuggle host files into a sandbox.
 */
export async function syncThreadSkillsView(
  paths: FawnPaths,
  scope: ThreadScope,
  skills: readonly Skill[],
  logger: Logger,
  /** The run's: a cancelled or shut-down run stops writing (the next run's sync completes it). */
  signal?: AbortSignal,
): Promise<SkillsViewChanges> {
  const viewDir = threadSkillsViewDir(paths, scope);
  return viewLocks.runExclusive(viewDir, async () => {
    signal?.throwIfAborted();
    const expected = new Map<string, ProjectedFile>();
    for (const skill of skills) {
      const files = skill.stored
        ? await storedSkillFiles(skill)
        : skill.hostDir === null
          ? new Map<string, ProjectedFile>()
          : await skillFiles(skill.hostDir, logger);
      for (const [rel, file] of files) {
        expected.set(join(skill.category, ...skill.relativeDir.split("/"), rel), file);
      }
    }
    await mkdir(viewDir, { recursive: true });
    let written = 0;
    for (const [rel, file] of expected) {
      signal?.throwIfAborted();
      if (await publishIfChanged(join(viewDir, rel), file)) written += 1;
    }
    signal?.throwIfAborted();
    const removed = await removeUnexpected(viewDir, expected);
    return { written, removed };
  });
}

/** Regular files of a skill folder, relative to it. */
async function skillFiles(root: string, logger: Logger): Promise<Map<string, ProjectedFile>> {
  const files = new Map<string, ProjectedFile>();
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(path);
        continue;
      }
      if (!entry.isFile()) continue;
      if (files.size >= MAX_FILES_PER_SKILL) return;
      const info = await lstat(path).catch(() => null);
      if (!info?.isFile()) continue;
      if (info.size > MAX_FILE_BYTES) {
        logger.warn({ file: path, bytes: info.size }, "skill file too large for the skills view");
        continue;
      }
      files.set(relative(root, path), { read: () => readFile(path), mode: info.mode & 0o755 });
    }
  };
  await visit(root);
  return files;
}

/** A stored skill's SKILL.md and files; their paths were checked when the skill was stored. */
async function storedSkillFiles(skill: Skill): Promise<Map<string, ProjectedFile>> {
  const files = new Map<string, ProjectedFile>();
  if (!skill.stored) return files;
  const content = Buffer.from(skill.stored.content, "utf8");
  files.set(SKILL_FILE, { read: async () => content, mode: 0o644 });
  for (const file of (await skill.stored.files()).slice(0, MAX_FILES_PER_SKILL)) {
    const segments = file.path.split("/");
    if (segments.some((part) => part === "" || part === ".." || part.startsWith("."))) continue;
    files.set(join(...segments), { read: async () => file.data, mode: file.mode & 0o755 });
  }
  return files;
}

async function publishIfChanged(target: string, file: ProjectedFile): Promise<boolean> {
  const data = await file.read();
  const current = await lstat(target).catch(() => null);
  // Content and the executable bit decide; other mode bits depend on the umask.
  if (current?.isFile() && (current.mode & 0o100) === (file.mode & 0o100)) {
    const existing = await readFile(target).catch(() => null);
    if (existing?.equals(data)) return false;
  } else if (current) {
    // A folder or link where a file belongs: clear it so the file can take its place.
    await rm(target, { recursive: true, force: true });
  }
  await mkdir(dirname(target), { recursive: true });
  await publishFileAtomically(target, data, { mode: file.mode });
  return true;
}

/** Removes every entry of the view that is not an expected file or a folder leading to one. */
async function removeUnexpected(
  viewDir: string,
  expected: ReadonlyMap<string, ProjectedFile>,
): Promise<number> {
  const keptDirs = new Set<string>();
  for (const rel of expected.keys()) {
    let dir = dirname(rel);
    while (dir !== "." && !keptDirs.has(dir)) {
      keptDirs.add(dir);
      dir = dirname(dir);
    }
  }
  let removed = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const rel = relative(viewDir, path);
      if (entry.isDirectory() && keptDirs.has(rel)) {
        await visit(path);
      } else if (!(entry.isFile() && expected.has(rel))) {
        await rm(path, { recursive: true, force: true });
        removed += 1;
      }
    }
  };
  // Folders not leading to an expected file went whole, so no empty folder is left behind.
  await visit(viewDir);
  return removed;
}
