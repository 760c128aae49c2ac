import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { repoRoot } from "../lib/paths.js";

/** One entry of Vite's `.vite/manifest.json`. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface BundleFigures {
  /** JS index.html loads before any lazy chunk: the entry and its static imports. */
  initialJs: Sizes;
  /** The chat's lazy chunk (and its imports not already in the initial set). */
  chatJs: Sizes;
  /** Every JS file of the build. */
  totalJs: Sizes;
  /** Chunk files of the initial set, largest first, with raw sizes. */
  initialFiles: { file: string; bytes: number }[];
}

export interface Sizes {
  bytes: number;
  gzipBytes: number;
  files: number;
}

/** Builds the web workspace (web/vite.config.ts, plus a manifest) into `outDir`. */
export async function buildWebWithManifest(outDir: string): Promise<void> {
  await build({
    configFile: join(repoRoot, "web/vite.config.ts"),
    logLevel: "error",
    build: { outDir, emptyOutDir: true, manifest: true },
  });
}

/** Static imports of `keys`, transitively (what the browser must load before running them). */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

async function sizesOf(
  outDir: string,
  files: Iterable<string>,
): Promise<Sizes & { each: { file: string; bytes: number }[] }> {
  const each: { file: string; bytes: number }[] = [];
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = await readFile(join(outDir, file));
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
    each.push({ file, bytes: content.length });
  }
  return { bytes, gzipBytes, files: each.length, each: each.sort((a, b) => b.bytes - a.bytes) };
}

/** Reads the built manifest and sizes the initial, chat and total JavaScript. */
export async function measureBundle(outDir: string): Promise<BundleFigures> {
  const manifest = JSON.parse(
    await readFile(join(outDir, ".vite/manifest.json"), "utf8"),
  ) as Record<string, ManifestChunk>;
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  const initialKeys = staticClosure(
    manifest,
    entries.map(([key]) => key),
  );
  const chatKey = Object.keys(manifest).find((key) => key.endsWith("chat/chat-view.tsx"));
  const chatKeys = chatKey
    ? [...staticClosure(manifest, [chatKey])].filter((key) => !initialKeys.has(key))
    : [];
  const fileOf = (key: string) => manifest[key]?.file ?? "";
  const jsFiles = (keys: Iterable<string>) =>
    [...keys].map(fileOf).filter((file) => file.endsWith(".js"));
  const initial = await sizesOf(outDir, jsFiles(initialKeys));
  const chat = await sizesOf(outDir, jsFiles(chatKeys));
  const total = await sizesOf(outDir, new Set(jsFiles(Object.keys(manifest))));
  return {
    initialJs: initial,
    chatJs: chat,
    totalJs: total,
    initialFiles: initial.each,
  };
}
