import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { FawnPaths, type ThreadPaths, type ThreadScope } from "../../../src/core/paths.js";

/** Text in every sentinel file: it must never show up in anything a hostile request gets back. */
export const SENTINEL_MARK = "SENTINEL-7f3a";
/** The name of the sentinel files (outside, in the thread dir, in another user's outputs). */
export const SENTINEL_NAME = "secret-sentinel.txt";
export const SENTINEL_IMAGE = "secret-sentinel.png";
/** A line of /etc/passwd that would prove it was read. */
export const PASSWD_MARK = "root:x:0:0";
export const LEGIT_REPORT = "# A legitimate report\n";

/** 1×1 PNG signature and IHDR, then the mark: a valid-looking image view_image would accept. */
const PNG_BYTES = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"),
  Buffer.from(SENTINEL_MARK),
]);

/** Links planted in each of the thread's folders; where each one leads. */
export const PLANTED_LINKS = [
  "abs-file-link",
  "rel-file-link",
  "abs-dir-link",
  "rel-dir-link",
  "chain-1",
  "chain-2",
  "chain-3",
  "dangling-link",
  "dangling-dir-link",
  "bob-link",
  "thread-link",
  "home-link",
  "loop-a",
  "loop-b",
  "png-link",
  "passwd-link",
  "root-link",
] as const;

export interface HostileWorld {
  home: string;
  /** A folder outside FAWN_HOME holding sentinels; nothing may appear or change there. */
  outside: string;
  alice: ThreadScope;
  bob: ThreadScope;
  aliceDirs: ThreadPaths;
  bobDirs: ThreadPaths;
  /** Puts Alice's folders back as they were built (writes that stayed inside may change them). */
  replant(): Promise<void>;
  /** Fingerprint of everything a hostile input must not touch. */
  snapshot(): Promise<Map<string, string>>;
  cleanup(): Promise<void>;
}

/**
 * Lays out a FAWN_HOME with Alice's thread (a legitimate `report.md` and a PNG in outputs),
 * sentinels outside it — in a folder outside FAWN_HOME, in Alice's thread folder above
 * user-data, at the top of FAWN_HOME and in Bob's outputs — and, inside Alice's workspace,
 * outputs and uploads, symlinks leading out (file and folder, absolute and relative, chains,
 * dangling, loops, to /etc/passwd and /) plus FIFOs.
 */
export async function buildHostileWorld(
  home: string,
  alice: ThreadScope,
  bob: ThreadScope,
): Promise<HostileWorld> {
  const paths = new FawnPaths(home);
  const outside = await mkdtemp(join(tmpdir(), "fawn-hostile-outside-"));
  await mkdir(join(outside, "sub"), { recursive: true });
  await writeFile(join(outside, SENTINEL_NAME), `${SENTINEL_MARK} outside FAWN_HOME\n`);
  await writeFile(join(outside, "sub", "deep-sentinel.txt"), `${SENTINEL_MARK} deep\n`);
  await writeFile(join(outside, SENTINEL_IMAGE), PNG_BYTES);

  const aliceDirs = await paths.ensureThreadDirs(alice);
  const bobDirs = await paths.ensureThreadDirs(bob);
  await writeFile(join(aliceDirs.threadDir, SENTINEL_NAME), `${SENTINEL_MARK} thread dir\n`);
  await writeFile(join(home, SENTINEL_NAME), `${SENTINEL_MARK} FAWN_HOME\n`);
  await writeFile(join(bobDirs.outputsDir, SENTINEL_NAME), `${SENTINEL_MARK} bob's output\n`);

  /** Alice's folders as a test starts from: a report, an image, links leading out, FIFOs. */
  async function plant(): Promise<void> {
    for (const dir of [aliceDirs.workspaceDir, aliceDirs.outputsDir, aliceDirs.uploadsDir]) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const targets: Record<(typeof PLANTED_LINKS)[number], string> = {
        "abs-file-link": join(outside, SENTINEL_NAME),
        "rel-file-link": relative(dir, join(outside, SENTINEL_NAME)),
        "abs-dir-link": outside,
        "rel-dir-link": relative(dir, outside),
        "chain-1": "chain-2",
        "chain-2": "chain-3",
        "chain-3": join(outside, SENTINEL_NAME),
        "dangling-link": join(outside, "created-by-escape.txt"),
        "dangling-dir-link": join(outside, "new-dir"),
        "bob-link": bobDirs.outputsDir,
        "thread-link": aliceDirs.threadDir,
        "home-link": home,
        "loop-a": "loop-b",
        "loop-b": "loop-a",
        "png-link": join(outside, SENTINEL_IMAGE),
        "passwd-link": "/etc/passwd",
        "root-link": "/",
      };
      for (const name of PLANTED_LINKS) await symlink(targets[name], join(dir, name));
      execFileSync("mkfifo", [join(dir, "pipe.txt"), join(dir, "pipe.png")]);
    }
    await writeFile(join(aliceDirs.outputsDir, "report.md"), LEGIT_REPORT);
    await writeFile(join(aliceDirs.outputsDir, "chart.png"), PNG_BYTES.subarray(0, 33));
  }
  await plant();

  return {
    home,
    outside,
    alice,
    bob,
    aliceDirs,
    bobDirs,
    replant: plant,
    async snapshot() {
      const seen = new Map<string, string>();
      await fingerprint(outside, "outside", seen, null);
      await fingerprint(home, "home", seen, aliceDirs.userDataDir);
      seen.set("/etc/passwd", digest(await readFile("/etc/passwd")));
      return seen;
    },
    async cleanup() {
      await rm(outside, { recursive: true, force: true });
    },
  };
}

/**
 * Every entry under `root` (symlinks not followed) → its kind and content digest or link target.
 * `skip` (Alice's user-data folder) is where contained writes may land, so it is left out.
 */
async function fingerprint(
  root: string,
  label: string,
  into: Map<string, string>,
  skip: string | null,
): Promise<void> {
  const visit = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      // Sandbox lock files are the provider's own bookkeeping beside the thread's folders.
      if (path === skip || name.endsWith(".lock")) continue;
      const key = `${label}/${relative(root, path)}`;
      const stats = await lstat(path);
      if (stats.isSymbolicLink()) into.set(key, `link:${await readlink(path)}`);
      else if (stats.isDirectory()) {
        into.set(key, "dir");
        await visit(path);
      } else if (stats.isFile()) into.set(key, `file:${digest(await readFile(path))}`);
      else into.set(key, "special");
    }
  };
  await visit(root);
}

function digest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Entries added, removed or changed between two snapshots, for a readable failure. */
export function snapshotChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [key, value] of after) {
    if (!before.has(key)) changes.push(`created ${key}`);
    else if (before.get(key) !== value) changes.push(`changed ${key}`);
  }
  for (const key of before.keys()) if (!after.has(key)) changes.push(`removed ${key}`);
  return changes;
}
