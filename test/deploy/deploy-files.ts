/**
 * Shared readers for the deployment-file tests: the repository's paths, and the set of
 * environment variables Fawn reads, derived from the source so a new variable needs no list edit.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const DEPLOY = join(REPO, "deploy");

export function readRepoFile(path: string): Promise<string> {
  return readFile(join(REPO, path), "utf8");
}

// `process.env.NAME`, `env.NAME`, `env["NAME"]`: direct reads.
const ENV_ACCESS = /\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\])/g;
// `apiKeyEnv: "NAME"`, `…_ENV = "NAME"`, `…_VARIABLE = "NAME"`: names read through a helper.
const ENV_NAME_CONSTANT =
  /(?:apiKeyEnv|[A-Z_]*(?:_ENV|_VARIABLE))\s*[:=]\s*["'`]([A-Z][A-Z0-9_]*)["'`]/g;

/** Every environment variable name `src/` reads (tests excluded). */
export async function envVarsFawnReads(): Promise<Set<string>> {
  const names = new Set<string>();
  const srcDir = join(REPO, "src");
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !/\.ts$/.test(entry.name) || /\.test\.ts$/.test(entry.name)) continue;
    const text = await readFile(join(entry.parentPath, entry.name), "utf8");
    for (const match of text.matchAll(ENV_ACCESS)) names.add(match[1] ?? match[2] ?? "");
    for (const match of text.matchAll(ENV_NAME_CONSTANT)) names.add(match[1] ?? "");
  }
  names.delete("");
  return names;
}

const CONFIG_REFERENCE = /^\s*[\w-]+:\s*\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\s*$/gm;

/** Variables a config.yaml reads through `$NAME` values (Fawn expands them when loading). */
export function envVarsReferencedBy(configText: string): Set<string> {
  return new Set([...configText.matchAll(CONFIG_REFERENCE)].map((match) => match[1] ?? ""));
}

/** Variable names set by an env file (`NAME=value` lines). */
export function envFileNames(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.slice(0, line.indexOf("=")));
}

export function repoRelative(path: string): string {
  return relative(REPO, path);
}
