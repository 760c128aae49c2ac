#!/usr/bin/env node
// Build step after `tsc -p tsconfig.build.json`: tsc emits only code, so every other file under
// src/ that the code reads at runtime beside itself (the demo model's script YAML, …) is copied to
// the same relative path under the out dir. Usage: node scripts/copy-build-assets.mjs [outDir]
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const srcDir = join(root, "src");
const outDir = resolve(root, process.argv[2] ?? "dist");

/** Code tsc compiles (or, with allowJs, copies) itself; tests never ship. */
function isAsset(name) {
  return !/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !/\.test\./.test(name);
}

const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
let copied = 0;
for (const entry of entries) {
  if (!entry.isFile() || !isAsset(entry.name)) continue;
  const from = join(entry.parentPath, entry.name);
  const to = join(outDir, relative(srcDir, from));
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
  copied += 1;
}
process.stdout.write(`copied ${copied} asset file(s) from src/ to ${relative(root, outDir) || "."}\n`);
