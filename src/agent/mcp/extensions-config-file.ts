import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { publishFileAtomically } from "../../core/atomic-file.js";
import type { Env } from "../../core/config/env-expansion.js";
import { ConfigError, describeError } from "../../core/errors.js";

export const EXTENSIONS_CONFIG_FILE = "extensions_config.json";
export const EXTENSIONS_CONFIG_ENV = "FAWN_EXTENSIONS_CONFIG";

export interface ExtensionsConfigLocation {
  /** Where to look, in order; the first that exists is the file. */
  candidates: string[];
  /** Where a write goes when no candidate exists yet. */
  defaultPath: string;
}

/**
 * Where extensions_config.json lives, searched like config.yaml: `FAWN_EXTENSIONS_CONFIG` (only
 * that path), else `$FAWN_HOME/extensions_config.json`, else `./extensions_config.json` (a
 * reference checkout keeps it beside config.yaml in the working directory).
 */
export function extensionsConfigLocation(
  home: string,
  env: Env,
  cwd = process.cwd(),
): ExtensionsConfigLocation {
  const explicit = env[EXTENSIONS_CONFIG_ENV]?.trim();
  if (explicit) {
    const path = resolve(cwd, explicit);
    return { candidates: [path], defaultPath: path };
  }
  const inHome = join(resolve(home), EXTENSIONS_CONFIG_FILE);
  return { candidates: [inHome, resolve(cwd, EXTENSIONS_CONFIG_FILE)], defaultPath: inHome };
}

export interface ExtensionsConfigText {
  path: string;
  text: string;
}

/** The first existing candidate's text, or null when there is none. */
export async function readExtensionsConfigText(
  location: ExtensionsConfigLocation,
): Promise<ExtensionsConfigText | null> {
  for (const path of location.candidates) {
    try {
      return { path, text: await readFile(path, "utf8") };
    } catch (error) {
      if (isNotFound(error)) continue;
      throw new ConfigError(`Cannot read ${path}: ${describeError(error)}`, { cause: error });
    }
  }
  return null;
}

/**
 * Which file is current and a signature of its version (inode, size, change times): one `stat`
 * per candidate, so an agent build that finds the file unchanged does not read it again.
 */
export async function extensionsConfigVersion(
  location: ExtensionsConfigLocation,
): Promise<string | null> {
  for (const path of location.candidates) {
    try {
      const info = await stat(path, { bigint: true });
      return `${path}\0${info.ino}\0${info.size}\0${info.mtimeNs}\0${info.ctimeNs}`;
    } catch (error) {
      if (isNotFound(error)) continue;
      throw new ConfigError(`Cannot read ${path}: ${describeError(error)}`, { cause: error });
    }
  }
  return null;
}

/** Parses the file's JSON; the error names the file. */
export function parseExtensionsJson(file: ExtensionsConfigText): unknown {
  try {
    return JSON.parse(file.text) as unknown;
  } catch (error) {
    throw new ConfigError(`Cannot parse ${file.path}: ${describeError(error)}`, { cause: error });
  }
}

/**
 * Publishes the whole document atomically (readers see the old or the new file, never half),
 * owner-only: it may hold tokens.
 */
export async function writeExtensionsConfig(path: string, document: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await publishFileAtomically(path, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error.code === "ENOENT" || error.code === "ENOTDIR")
  );
}
