import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { ConfigError, describeError } from "../errors.js";
import { classifyUnknownKeys } from "./classify-keys.js";
import { type ConfigFinding, formatFinding } from "./config-finding.js";
import { formatConfigPath } from "./config-path.js";
import { type Env, expandEnvReferences, isPlainObject } from "./env-expansion.js";
import { unreadFeatureKeys } from "./feature-section-keys.js";
import { mapReferenceKeys } from "./reference-mapping.js";
import { AUTH_MODES, type AuthMode, type FawnConfig, fawnConfigSchema } from "./schema.js";
import { applyTracingEnv } from "./tracing-env.js";

export interface LoadConfigOptions {
  env?: Env;
  cwd?: string;
}

export interface LoadedConfig {
  config: FawnConfig;
  /**
   * Non-fatal findings (mapped, unsupported and unknown keys, unset `$VARS`, no model), each
   * starting with the dotted key path.
   */
  warnings: string[];
  /** The verdict on every key that is not simply Fawn's own: mapped, unsupported or unknown. */
  findings: ConfigFinding[];
  /** The file the config came from; null when running on defaults. */
  source: string | null;
}

/**
 * Reads, expands and validates the configuration. File: `FAWN_CONFIG` (must exist if set), else
 * `$FAWN_HOME/config.yaml`, else `./config.yaml`, else defaults. Environment beats the file:
 * `FAWN_PORT`, `FAWN_HOST`, `FAWN_AUTH`, `FAWN_DATABASE_URL`, `FAWN_REDIS_URL`, and the tracing
 * variables (`LANGSMITH_*`, `LANGFUSE_*`, `OTEL_*`: `tracing-env.ts`).
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
  const mapping = mapReferenceKeys(input, {
    baseDir: source ? dirname(source) : cwd,
    file: source,
    envDatabaseUrl: nonEmpty(env.FAWN_DATABASE_URL) !== undefined,
  });
  applyEnvOverrides(input, env);
  // Before validation: the opaque sections' records are copies once parsed.
  const unread = classifyUnknownKeys(unreadFeatureKeys(input), input, source);
  const { parsed, unknown } = validate(input, where, source, mapping.origins);
  const findings = [...mapping.findings, ...unknown, ...unread];
  warnings.push(...mapping.warnings, ...findings.map(formatFinding));
  const home = resolveHome(env, cwd);
  const config: FawnConfig = {
    ...parsed,
    home,
    database: { ...parsed.database, url: parsed.database.url ?? `sqlite:${join(home, "fawn.db")}` },
  };
  return { config, warnings, findings, source };
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
  // Containers bind 0.0.0.0 this way whatever config file is mounted.
  const host = nonEmpty(env.FAWN_HOST);
  if (host !== undefined) setIn(input, "server", "host", host);
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
  applyTracingEnv(input, env);
}

/** Sets `input[section][key]`; a section that is not a mapping is left for validation to report. */
function setIn(input: Record<string, unknown>, section: string, key: string, value: unknown): void {
  const current = input[section] ?? {};
  if (isPlainObject(current)) input[section] = { ...current, [key]: value };
}

/**
 * Strict sections report unknown keys as zod issues. Those become findings (unsupported reference
 * keys or unknown ones) and are dropped (a typo must not stop the server); any other issue is an
 * error naming every bad path at once, as the file spells it.
 */
function validate(
  input: Record<string, unknown>,
  where: string,
  source: string | null,
  origins: ReadonlyMap<string, string>,
): { parsed: z.output<typeof fawnConfigSchema>; unknown: ConfigFinding[] } {
  const first = fawnConfigSchema.safeParse(input);
  if (first.success) return { parsed: first.data, unknown: [] };
  const unknownKeys = first.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [],
  );
  const problems = first.error.issues.filter((issue) => issue.code !== "unrecognized_keys");
  if (problems.length > 0) throw invalidConfig(problems, where, unknownKeys, origins);
  const unknown = classifyUnknownKeys(unknownKeys, input, source);
  for (const path of unknownKeys) deleteIn(input, path);
  const second = fawnConfigSchema.safeParse(input);
  if (!second.success) throw invalidConfig(second.error.issues, where, [], origins);
  return { parsed: second.data, unknown };
}

function invalidConfig(
  issues: readonly z.core.$ZodIssue[],
  where: string,
  unknownKeys: PropertyKey[][],
  origins: ReadonlyMap<string, string>,
): ConfigError {
  const listed = issues.map((issue) => ({
    path: asWritten(formatConfigPath(issue.path), origins),
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

/** A Fawn path a reference key was moved to, named as the file wrote it. */
function asWritten(path: string, origins: ReadonlyMap<string, string>): string {
  const origin = origins.get(path);
  return origin ? `${origin} (read as ${path})` : path;
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
