import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWeb } from "../../../web/ensure-web-build.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCES = ["web/src", "web/index.html", "web/vite.config.ts", "package-lock.json"];
/** A lock not refreshed for this long is a killed run's (the holder refreshes it while building). */
const STALE_LOCK_MS = 120_000;
const LOCK_REFRESH_MS = 10_000;

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null);
  if (info === null) return [];
  if (!info.isDirectory()) return [path];
  const entries = (await readdir(path)).sort();
  const nested = await Promise.all(entries.map((entry) => filesUnder(join(path, entry))));
  return nested.flat();
}

async function sourceHash(): Promise<string> {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of await filesUnder(join(REPO, source))) {
      hash.update(file.slice(REPO.length));
      hash.update(await readFile(file));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isBuilt = async (dir: string) =>
  (await stat(join(dir, "index.html")).catch(() => null)) !== null;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when the lock's holder is gone: its pid is dead, or it stopped refreshing the lock. */
async function lockIsStale(lock: string): Promise<boolean> {
  const info = await stat(lock).catch(() => null);
  if (info === null) return false;
  const pid = Number(await readFile(join(lock, "pid"), "utf8").catch(() => ""));
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return true;
  return Date.now() - info.mtimeMs > STALE_LOCK_MS;
}

/** Builds into a private folder, then renames it into place (a half-done build is never used). */
async function buildUnderLock(dir: string, lock: string): Promise<void> {
  await writeFile(join(lock, "pid"), String(process.pid));
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(lock, now, now).catch(() => undefined);
  }, LOCK_REFRESH_MS);
  const partial = `${dir}.partial-${process.pid}`;
  try {
    await buildWeb(partial);
    await rename(partial, dir).catch(async (error: unknown) => {
      // Only a holder whose lock was wrongly taken as stale can lose this race; its build stands.
      if (!(await isBuilt(dir))) throw error;
    });
  } finally {
    clearInterval(refresh);
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * One web build per source state, shared by every browser test file of a run (each runs in its
 * own worker, several at once): the first caller builds into a folder named by a hash of the
 * sources, the others wait for it.
 */
export async function sharedWebBuild(): Promise<string> {
  const dir = join(tmpdir(), `fawn-web-build-${await sourceHash()}`);
  const lock = `${dir}.lock`;
  for (;;) {
    if (await isBuilt(dir)) return dir;
    const locked = await mkdir(lock).then(
      () => true,
      () => false,
    );
    if (locked) {
      try {
        // Another worker may have finished and let go of the lock since the check above.
        if (!(await isBuilt(dir))) await buildUnderLock(dir, lock);
        return dir;
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    if (await lockIsStale(lock)) await rm(lock, { recursive: true, force: true });
    await sleep(250);
  }
}
