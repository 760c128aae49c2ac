/**
 * `npm start` runs this before `fawn serve`: builds the web workspace into web/dist when there is
 * no build yet or a source is newer than it (web/src, index.html, the Vite config, the lockfile).
 * A fresh clone after `npm ci` therefore serves the UI without a separate build step.
 * Also importable: the browser tests call `buildWeb(outDir)` once per run.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const WEB_DIR = fileURLToPath(new URL(".", import.meta.url));
const REPO_DIR = join(WEB_DIR, "..");
const DIST_INDEX = join(WEB_DIR, "dist", "index.html");
const SOURCES = [
  join(WEB_DIR, "src"),
  join(WEB_DIR, "index.html"),
  join(WEB_DIR, "vite.config.ts"),
  join(REPO_DIR, "package-lock.json"),
];

/** Builds the UI with web/vite.config.ts; `outDir` (absolute, quiet: for tests) overrides web/dist. */
export async function buildWeb(outDir?: string): Promise<void> {
  await build({
    configFile: join(WEB_DIR, "vite.config.ts"),
    logLevel: outDir ? "error" : "warn",
    ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}),
  });
}

/** Newest modification time under the given files and folders (0 when none exist). */
async function newestMtime(paths: string[]): Promise<number> {
  let newest = 0;
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info === null) continue;
    if (info.isDirectory()) {
      const entries = await readdir(path);
      newest = Math.max(newest, await newestMtime(entries.map((entry) => join(path, entry))));
    } else {
      newest = Math.max(newest, info.mtimeMs);
    }
  }
  return newest;
}

export async function webBuildIsStale(): Promise<boolean> {
  const built = await stat(DIST_INDEX).catch(() => null);
  if (built === null) return true;
  return (await newestMtime(SOURCES)) > built.mtimeMs;
}

async function main(): Promise<void> {
  if (!(await webBuildIsStale())) return;
  process.stdout.write("Building the web workspace (web/dist)…\n");
  await buildWeb();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`web build failed: ${String(error)}\n`);
    process.exit(1);
  });
}
