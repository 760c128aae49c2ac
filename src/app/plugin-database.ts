import { mkdir } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { ConfigError } from "../core/errors.js";
import type { PluginDatabase } from "../extensions/api/index.js";
import { SqliteWorkerDialect } from "../stores/sql/sqlite-worker-dialect.js";

/*
 * The host side of `ExtensionServiceDeps.openDatabase`: a Kysely connection for a plugin's own
 * tables, through Fawn's SQL drivers. SQLite goes through the worker-thread dialect (the event
 * loop never waits on the file; transactions are BEGIN IMMEDIATE), PostgreSQL through a small
 * pool. Fawn's migrations are not run: the plugin owns its tables.
 */

export interface OpenPluginDatabaseOptions {
  /** A SQLite file of the plugin's own, instead of the host database. */
  sqlitePath?: string;
  /** PostgreSQL pool size (default 4). */
  poolSize?: number;
}

export async function openPluginDatabase(
  url: string,
  options: OpenPluginDatabaseOptions = {},
): Promise<PluginDatabase> {
  if (options.sqlitePath !== undefined) return openSqlite(options.sqlitePath);
  if (url.startsWith("sqlite:")) {
    let rest = url.slice("sqlite:".length);
    if (rest.startsWith("//")) rest = rest.slice(2);
    if (rest === "") throw new ConfigError(`SQLite URL "${url}" names no file.`);
    return openSqlite(rest);
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 4,
      connectionTimeoutMillis: 10_000,
      statement_timeout: 30_000,
    });
    // A dropped idle client must not crash the process; the next query reconnects.
    pool.on("error", () => undefined);
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool }) });
    return { dialect: "postgres", db, close: () => db.destroy() };
  }
  throw new ConfigError(
    `Plugins need a SQL database: "${url.split(":")[0]}:" has none; configure sqlite:<path> or postgres://…, or give the plugin its own SQLite file.`,
  );
}

async function openSqlite(path: string): Promise<PluginDatabase> {
  const filename = path === ":memory:" ? path : isAbsolute(path) ? path : resolve(path);
  if (filename !== ":memory:") await mkdir(dirname(filename), { recursive: true });
  const db = new Kysely<Record<string, never>>({
    dialect: new SqliteWorkerDialect({ filename, busyTimeoutMs: 30_000 }),
  });
  return { dialect: "sqlite", db, close: () => db.destroy() };
}
