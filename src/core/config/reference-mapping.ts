import { resolve } from "node:path";
import { ConfigError } from "../errors.js";
import { notSupported } from "./classify-keys.js";
import type { ConfigFinding } from "./config-finding.js";
import { isPlainObject } from "./env-expansion.js";

/**
 * Reference keys that mean one of Fawn's settings, moved there before validation. A Fawn key set
 * in the same file wins over the reference key it would replace.
 */
const MOVED_KEYS: readonly (readonly [from: string, to: string])[] = [
  ["run_ownership.lease_seconds", "runtime.lease_seconds"],
  ["run_ownership.grace_seconds", "runtime.grace_seconds"],
  ["run_ownership.heartbeat_enabled", "runtime.heartbeat_enabled"],
  ["scheduler.enabled", "crons.enabled"],
  ["scheduler.poll_interval_seconds", "crons.poll_interval_seconds"],
  ["scheduler.lease_seconds", "crons.lease_seconds"],
  ["auth.local.allow_registration", "auth.allow_registration"],
];

/** Reference sandbox providers with a Fawn counterpart (the schema maps these class paths). */
const KNOWN_SANDBOX_CLASSES = new Set([
  "deerflow.sandbox.local:LocalSandboxProvider",
  "deerflow.community.aio_sandbox:AioSandboxProvider",
]);

/** Where the reference keeps its SQLite data when `sqlite_dir` is not given. */
const REFERENCE_SQLITE_DIR = ".deer-flow/data";

export interface ReferenceMapping {
  findings: ConfigFinding[];
  /** Plain warnings (not about one key's verdict), e.g. the demo-model fallback. */
  warnings: string[];
  /** Fawn path → the reference path it came from, so a bad value is reported as written. */
  origins: Map<string, string>;
}

/**
 * Rewrites the reference's keys in `input` (an expanded copy of the file) into Fawn's. Relative
 * paths (`database.sqlite_dir`) are resolved against `baseDir`, the config file's folder.
 */
export interface MappingContext {
  /** The config file's folder (or the working directory): relative paths start there. */
  baseDir: string;
  file: string | null;
  /** FAWN_DATABASE_URL is set, so it beats any database key of the file. */
  envDatabaseUrl?: boolean;
}

export function mapReferenceKeys(
  input: Record<string, unknown>,
  context: MappingContext,
): ReferenceMapping {
  const out: ReferenceMapping = { findings: [], warnings: [], origins: new Map() };
  const mapped = (path: string, message: string): void => {
    out.findings.push({ kind: "mapped", path, message, file: context.file });
  };
  for (const [from, to] of MOVED_KEYS) moveKey(input, from, to, mapped, out.origins);
  mapDatabase(input, context, mapped);
  mapStreamBridgeType(input, context.file, mapped);
  mapSandboxClass(input, context.file, out.findings);
  if ("models" in input && (input.models === null || isEmptyList(input.models))) {
    delete input.models;
    out.warnings.push(
      `models: no model configured${context.file ? ` in ${context.file}` : ""}; the built-in offline demo model answers. Add one under models: with name, use (e.g. langchain_openai:ChatOpenAI), model and api_key.`,
    );
  }
  return out;
}

function moveKey(
  input: Record<string, unknown>,
  from: string,
  to: string,
  mapped: (path: string, message: string) => void,
  origins: Map<string, string>,
): void {
  const fromPath = from.split(".");
  const value = getIn(input, fromPath);
  if (value === undefined) return;
  deleteIn(input, fromPath);
  const toPath = to.split(".");
  if (getIn(input, toPath) !== undefined) {
    mapped(from, `ignored: ${to} is set too and wins`);
    return;
  }
  if (!setIn(input, toPath, value)) return;
  origins.set(to, from);
  const note = MOVE_NOTES[from]?.(value);
  mapped(from, `mapped onto ${to}${note ? ` (${note})` : ""}`);
}

/** What a moved value means in Fawn when that differs from what a DeerFlow user may expect. */
const MOVE_NOTES: Readonly<Record<string, (value: unknown) => string | null>> = {
  "run_ownership.heartbeat_enabled": (value) =>
    value === false
      ? "false: no cross-process cancel, and a dead process's runs are recovered only when a process starts; true is Fawn's default"
      : null,
  "scheduler.enabled": (value) =>
    value === false ? "false: the /runs/crons routes are off and no cron fires" : null,
};

function mapDatabase(
  input: Record<string, unknown>,
  context: MappingContext,
  mapped: (path: string, message: string) => void,
): void {
  const database = input.database;
  if (!isPlainObject(database)) return;
  const { backend, sqlite_dir: sqliteDir, postgres_url: postgresUrl } = database;
  const present = (
    [
      ["database.backend", backend],
      ["database.sqlite_dir", sqliteDir],
      ["database.postgres_url", postgresUrl],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (present.length === 0) return;
  delete database.backend;
  delete database.sqlite_dir;
  delete database.postgres_url;
  const winner = context.envDatabaseUrl
    ? "FAWN_DATABASE_URL"
    : database.url !== undefined
      ? "database.url"
      : null;
  if (winner !== null) {
    for (const [path] of present) mapped(path, `ignored: ${winner} is set and wins`);
    return;
  }
  const kind = backend ?? (postgresUrl !== undefined ? "postgres" : "sqlite");
  const url = referenceDatabaseUrl(kind, sqliteDir, postgresUrl, context);
  database.url = url;
  const shown = url.replace(/\/\/([^:@/]+):([^@/]+)@/, "//$1:***@");
  for (const [path] of present) {
    const unused =
      (path === "database.sqlite_dir" && kind !== "sqlite") ||
      (path === "database.postgres_url" && kind !== "postgres");
    mapped(
      path,
      unused ? `ignored: database.backend is ${kind}` : `mapped onto database.url (${shown})`,
    );
  }
}

/** The URL of DeerFlow's `database.backend` choice; a choice that cannot work stops start-up. */
function referenceDatabaseUrl(
  kind: unknown,
  sqliteDir: unknown,
  postgresUrl: unknown,
  context: MappingContext,
): string {
  const where = context.file ? ` in ${context.file}` : "";
  if (kind === "memory") return "memory:";
  if (kind === "sqlite") {
    if (sqliteDir !== undefined && typeof sqliteDir !== "string") {
      throw new ConfigError(`database.sqlite_dir${where}: expected a folder path (a string).`);
    }
    // Fawn's own file in that folder: DeerFlow's deerflow.db holds tables Fawn does not read.
    return `sqlite:${resolve(context.baseDir, sqliteDir ?? REFERENCE_SQLITE_DIR, "fawn.db")}`;
  }
  if (kind === "postgres") {
    if (typeof postgresUrl !== "string" || postgresUrl === "") {
      throw new ConfigError(
        `database.postgres_url${where}: database.backend is postgres, so a connection URL (postgresql://user:pass@host:5432/db, e.g. $DATABASE_URL) is needed; it is missing or its variable is not set.`,
      );
    }
    // The reference names a Python driver in the scheme (postgresql+asyncpg://); pg needs none.
    return postgresUrl.replace(/^postgres(ql)?\+[a-z0-9_]+:\/\//i, "postgresql://");
  }
  throw new ConfigError(
    `database.backend${where}: expected memory, sqlite or postgres, got ${JSON.stringify(kind)}.`,
  );
}

function mapStreamBridgeType(
  input: Record<string, unknown>,
  file: string | null,
  mapped: (path: string, message: string) => void,
): void {
  const bridge = input.stream_bridge;
  if (!isPlainObject(bridge) || bridge.type === undefined) return;
  const type = bridge.type;
  delete bridge.type;
  if (type === "memory") {
    if (bridge.redis_url !== undefined) delete bridge.redis_url;
    mapped("stream_bridge.type", "mapped: the in-memory bridge (no stream_bridge.redis_url)");
  } else if (type === "redis") {
    mapped(
      "stream_bridge.type",
      bridge.redis_url === undefined
        ? "mapped: the Redis bridge needs stream_bridge.redis_url (or FAWN_REDIS_URL); until one is set the in-memory bridge is used"
        : "mapped: the Redis bridge at stream_bridge.redis_url",
    );
  } else {
    throw new ConfigError(
      `stream_bridge.type${file ? ` in ${file}` : ""}: expected memory or redis, got ${JSON.stringify(type)}.`,
    );
  }
}

/** A reference sandbox class Fawn has no port of falls back to `auto`, named as unsupported. */
function mapSandboxClass(
  input: Record<string, unknown>,
  file: string | null,
  findings: ConfigFinding[],
): void {
  const sandbox = input.sandbox;
  if (!isPlainObject(sandbox) || typeof sandbox.use !== "string") return;
  const use = sandbox.use;
  if (!use.includes(":") || KNOWN_SANDBOX_CLASSES.has(use)) return;
  sandbox.use = "auto";
  findings.push({
    kind: "unsupported",
    path: "sandbox.use",
    message: notSupported(
      `${use} is not a Fawn sandbox, so auto is used (bubblewrap where it works, else local); choose local, bwrap or container`,
    ),
    file,
  });
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function getIn(input: unknown, path: readonly string[]): unknown {
  let node = input;
  for (const segment of path) {
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

/** Deletes the key and then any mapping it leaves empty. */
function deleteIn(input: Record<string, unknown>, path: readonly string[]): void {
  const parents: Record<string, unknown>[] = [input];
  for (const segment of path.slice(0, -1)) {
    const next = parents.at(-1)?.[segment];
    if (!isPlainObject(next)) return;
    parents.push(next);
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = parents[depth];
    const key = path[depth];
    if (parent === undefined || key === undefined) return;
    const child = parent[key];
    if (depth < path.length - 1 && !(isPlainObject(child) && Object.keys(child).length === 0))
      return;
    delete parent[key];
  }
}

/** Sets a nested key, creating mappings on the way; false when a non-mapping is in the way. */
function setIn(input: Record<string, unknown>, path: readonly string[], value: unknown): boolean {
  let node = input;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment] ?? {};
    if (!isPlainObject(next)) return false;
    node[segment] = next;
    node = next;
  }
  const last = path.at(-1);
  if (last === undefined) return false;
  node[last] = value;
  return true;
}
