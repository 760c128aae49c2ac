import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { ConfigError, describeError } from "../errors.js";
import { formatConfigPath } from "./config-path.js";
import { type Env, expandEnvReferences, isPlainObject } from "./env-expansion.js";
import { AUTH_MODES, type AuthMode, type FawnConfig, fawnConfigSchema } from "./schema.js";

export interface LoadConfigOptions {
  env?: Env;
  cwd?: string;
}

export interface LoadedConfig {
  config: FawnConfig;
  /** Non-fatal findings (unknown keys, unset `$VARS`), each starting with the dotted key path. */
  warnings: string[];
  /** The file the config came from; null when running on defaults. */
  source: string | null;
}

/**
 * Reads, expands and validates the configuration. File: `FAWN_CONFIG` (must exist if set), else
 * `$FAWN_HOME/config.yaml`, else `./config.yaml`, else defaults. Environment beats the file:
 * `FAWN_PORT`, `FAWN_AUTH`, `FAWN_DATABASE_URL`, `FAWN_REDIS_URL`.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = await readConfigFile(env, cwd);
  const raw = file ? parseConfigText(file.text, file.path) : {};
  return parseConfig(raw, { env, cwd, source: file?.path ?? null });
}

/** Validates an already parsed config tree (a YAML document, or an object given by an embedder). */
export function parseConfig(
  raw: unknown,
  options: LoadConfigOptions & { source?: string | null } = {},
): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const source = options.source ?? null;
  const where = source ?? "defaults and environment";
  if (raw !== null && raw !== undefined && !isPlainObject(raw)) {
    throw new ConfigError(`Invalid configuration (${where}): the top level must be a mapping.`);
  }
  const warnings: string[] = [];
  const expanded = expandEnvReferences(raw ?? {}, env, warnings);
  const input = isPlainObject(expanded) ? expanded : {};
  applyEnvOverrides(input, env);
  const parsed = validate(input, where, warnings);
  const home = resolveHome(env, cwd);
  const config: FawnConfig = {
    ...parsed,
    home,
    database: { url: parsed.database.url ?? `sqlite:${join(home, "fawn.db")}` },
  };
  return { config, warnings, source };
}

export function resolveHome(env: Env, cwd: string): string {
  return resolve(cwd, nonEmpty(env.FAWN_HOME) ?? ".fawn");
}

async function readConfigFile(
  env: Env,
  cwd: string,
): Promise<{ path: string; text: string } | null> {
  const explicit = nonEmpty(env.FAWN_CONFIG);
  if (explicit) {
    const path = resolve(cwd, explicit);
    const text = await readIfPresent(path);
    if (text === null) {
      throw new ConfigError(
        `FAWN_CONFIG points to ${path}, which does not exist; create it or unset FAWN_CONFIG.`,
      );
    }
    return { path, text };
  }
  for (const path of [join(resolveHome(env, cwd), "config.yaml"), resolve(cwd, "config.yaml")]) {
    const text = await readIfPresent(path);
    if (text !== null) return { path, text };
  }
  return null;
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) return null;
    throw new ConfigError(`Cannot read config file ${path}: ${describeError(error)}`, {
      cause: error,
    });
  }
}

function parseConfigText(text: string, path: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new ConfigError(`Cannot parse ${path}: ${describeError(error)}`, { cause: error });
  }
}

function applyEnvOverrides(input: Record<string, unknown>, env: Env): void {
  const port = nonEmpty(env.FAWN_PORT);
  if (port !== undefined) {
    const value = /^\d+$/.test(port) ? Number(port) : Number.NaN;
    if (!(value >= 1 && value <= 65_535)) {
      throw new ConfigError(`FAWN_PORT must be a port number from 1 to 65535, got "${port}".`);
    }
    setIn(input, "server", "port", value);
  }
  const auth = nonEmpty(env.FAWN_AUTH);
  if (auth !== undefined) {
    if (!isAuthMode(auth)) {
      throw new ConfigError(`FAWN_AUTH must be one of ${AUTH_MODES.join(", ")}; got "${auth}".`);
    }
    setIn(input, "auth", "mode", auth);
  }
  const databaseUrl = nonEmpty(env.FAWN_DATABASE_URL);
  if (databaseUrl !== undefined) setIn(input, "database", "url", databaseUrl);
  const redisUrl = nonEmpty(env.FAWN_REDIS_URL);
  if (redisUrl !== undefined) setIn(input, "stream_bridge", "redis_url", redisUrl);
}

/** Sets `input[section][key]`; a section that is not a mapping is left for validation to report. */
function setIn(input: Record<string, unknown>, section: string, key: string, value: unknown): void {
  const current = input[section] ?? {};
  if (isPlainObject(current)) input[section] = { ...current, [key]: value };
}

/**
 * Strict sections report unknown keys as zod issues. Those become warnings and are dropped (a typo
 * must not stop the server); any other issue is an error naming every bad path at once.
 */
function validate(
  input: Record<string, unknown>,
  where: string,
  warnings: string[],
): z.output<typeof fawnConfigSchema> {
  const first = fawnConfigSchema.safeParse(input);
  if (first.success) return first.data;
  const unknownKeys = first.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [],
  );
  const problems = first.error.issues.filter((issue) => issue.code !== "unrecognized_keys");
  if (problems.length > 0) throw invalidConfig(problems, where, unknownKeys);
  for (const path of unknownKeys) {
    warnings.push(`${formatConfigPath(path)}: unknown key, ignored`);
    deleteIn(input, path);
  }
  const second = fawnConfigSchema.safeParse(input);
  if (!second.success) throw invalidConfig(second.error.issues, where, []);
  return second.data;
}

function invalidConfig(
  issues: readonly z.core.$ZodIssue[],
  where: string,
  unknownKeys: PropertyKey[][],
): ConfigError {
  const listed = issues.map((issue) => ({
    path: formatConfigPath(issue.path),
    message: issue.message,
  }));
  const hint =
    unknownKeys.length > 0
      ? ` (unknown keys, possibly misspelt: ${unknownKeys.map(formatConfigPath).join(", ")})`
      : "";
  const summary = listed.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return new ConfigError(`Invalid configuration (${where}): ${summary}${hint}`, {
    details: { issues: listed },
  });
}

function deleteIn(input: unknown, path: readonly PropertyKey[]): void {
  let node = input;
  for (const segment of path.slice(0, -1)) {
    if (Array.isArray(node) && typeof segment === "number") node = node[segment];
    else if (isPlainObject(node) && typeof segment === "string") node = node[segment];
    else return;
  }
  const last = path.at(-1);
  if (isPlainObject(node) && typeof last === "string") delete node[last];
}

function isAuthMode(value: string): value is AuthMode {
  return (AUTH_MODES as readonly string[]).includes(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === code;
}
