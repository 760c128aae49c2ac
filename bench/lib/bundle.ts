import { copyFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./paths.js";

// Inside node_modules so bundles resolve the external packages; one folder per bench process so
// a smoke test and a manual run never overwrite each other's files.
const OUT_DIR = join(repoRoot, "node_modules", ".cache", "fawn-bench", String(process.pid));
const built = new Map<string, Promise<string>>();

/**
 * Bundles a TypeScript entry (our code inlined, packages external) into one ES module that plain
 * `node` runs: child processes then start in about a second instead of transpiling every file
 * through tsx, and run compiled JavaScript as a deployment would. Built once per bench process.
 */
export function bundleEntry(entry: string): Promise<string> {
  let bundle = built.get(entry);
  if (!bundle) {
    bundle = buildBundle(entry);
    built.set(entry, bundle);
  }
  return bundle;
}

async function buildBundle(entry: string): Promise<string> {
  // bench/storage/run.ts → bench-storage-run.mjs: entries with the same file name stay apart.
  const outfile = join(OUT_DIR, entry.replace(/\.ts$/, ".mjs").replaceAll("/", "-"));
  await mkdir(OUT_DIR, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  // The SQLite dialect starts its worker thread from a file next to the calling module.
  await copyFile(
    join(repoRoot, "src/stores/sql/sqlite-worker.js"),
    join(OUT_DIR, "sqlite-worker.js"),
  );
  return outfile;
}

/** Deletes this process's bundles (the harness calls it once every script has finished). */
export async function removeBundles(): Promise<void> {
  built.clear();
  await rm(OUT_DIR, { recursive: true, force: true });
}
