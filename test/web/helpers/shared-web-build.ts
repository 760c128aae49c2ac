import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWeb } from "../../../web/ensure-web-build.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCES = ["web/src", "web/index.html", "web/vite.config.ts", "package-lock.json"];

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

/**
 * One web build per source state, shared by every browser test file of a run (each runs in its
 * own worker): the first caller builds into a folder named by a hash of the sources, the others
 * wait for it. A build left half-done by a killed run is never used (it is renamed into place).
 */
export async function sharedWebBuild(): Promise<string> {
  const dir = join(tmpdir(), `fawn-web-build-${await sourceHash()}`);
  const lock = `${dir}.lock`;
  for (;;) {
    if (await stat(join(dir, "index.html")).catch(() => null)) return dir;
    const locked = await mkdir(lock).then(
      () => true,
      () => false,
    );
    if (locked) {
      try {
        const partial = `${dir}.partial-${process.pid}`;
        await buildWeb(partial);
        await rename(partial, dir);
        return dir;
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    // Another worker is building; a lock older than five minutes is from a killed run.
    const lockInfo = await stat(lock).catch(() => null);
    if (lockInfo && Date.now() - lockInfo.mtimeMs > 300_000)
      await rm(lock, { recursive: true, force: true });
    await sleep(250);
  }
}
