import { AsyncLocalStorage } from "node:async_hooks";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  type CompiledQuery,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  type QueryResult,
  sql,
} from "kysely";
import pg from "pg";
import { SingleFlight } from "../../core/async/single-flight.js";
import { ConfigError, describeError } from "../../core/errors.js";
import { fawnMigrationProvider, MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from "./migrations.js";
import type { FawnTables } from "./schema.js";
import type { SqlDialectName } from "./sql-dialect-name.js";
import { isMissingSchema, toStoreError } from "./sql-errors.js";
import type { SqlTraffic } from "./sql-traffic.js";
import { SqliteWorkerDialect } from "./sqlite-worker-dialect.js";

export type { SqlDialectName } from "./sql-dialect-name.js";

export type SqlExecutor = Kysely<FawnTables>;

/** One opened database: a typed Kysely instance, its engine, and the transaction scope. */
export interface SqlDatabase {
  readonly dialect: SqlDialectName;
  /** The root instance (pool on PostgreSQL, the single worker connection on SQLite). */
  readonly db: Kysely<FawnTables>;
  /**
   * Where a query should run from the current async context: the transaction opened by
   * `transaction()` when inside one, else the root instance. Store callbacks that run inside a
   * transaction (e.g. a `putIfAbsent` guard reading the run row) thereby join it instead of
   * waiting for a second connection — on SQLite that second connection would never come.
   */
  executor(): SqlExecutor;
  /** Runs `fn` in a transaction; a nested call joins the outer one. */
  transaction<T>(fn: (trx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs compiled statements in order as one transaction (all commit or none) and returns their
   * results. For write sequences whose statements need no answer from each other: on SQLite the
   * whole transaction is one message to the worker; on PostgreSQL a single statement runs alone
   * (autocommit is atomic), several in BEGIN … COMMIT. Inside `transaction()` they join it (on
   * SQLite still as one message; a failure leaves that transaction to roll back). With `commit`
   * inside `transaction()` they are its last statements: on SQLite its COMMIT travels in the same
   * message, and any statement after them in that transaction fails.
   */
  executeBatch(
    queries: readonly CompiledQuery[],
    options?: { commit?: boolean },
  ): Promise<QueryResult<unknown>[]>;
  /** Statement/transaction/message counts, when opened with `countTraffic` on SQLite; else null. */
  traffic(): SqlTraffic | null;
  /**
   * Whether the database answers and has Fawn's schema. A reachable database whose schema is gone
   * (dropped and created again) gets it back first: the migrations run again (single-flight).
   */
  checkHealth(): Promise<StoreHealth>;
  close(): Promise<void>;
}

export type StoreHealth = { up: true } | { up: false; reason: string };

/** A health probe that takes longer than this reports the store down. */
const HEALTH_TIMEOUT_MS = 3000;

export interface OpenSqlDatabaseOptions {
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** SQLite busy_timeout in ms (default 30000). */
  busyTimeoutMs?: number;
  /**
   * PostgreSQL statement_timeout in ms (default 30000), so no call waits on the server forever;
   * 0 = none (`database.command_timeout: null`).
   */
  statementTimeoutMs?: number;
  /** PostgreSQL: close and reopen a connection after this many seconds (0 = never). */
  poolRecycleSeconds?: number;
  /** Count what the SQLite connection sends (`SqlDatabase.traffic()`); off by default. */
  countTraffic?: boolean;
}

/** Key class for session advisory locks taken by Fawn (two-int form, separate from event locks). */
export const ADVISORY_CLASS_MIGRATIONS = 0x46_41_57_01;

/** The transaction of an async context; `open` turns false when it ends. */
interface TransactionScope {
  trx: SqlExecutor;
  open: boolean;
}

class KyselySqlDatabase implements SqlDatabase {
  private readonly scope = new AsyncLocalStorage<TransactionScope>();
  private readonly repairs = new SingleFlight<"schema", void>();
  private closing: Promise<void> | null = null;

  constructor(
    readonly dialect: SqlDialectName,
    readonly db: Kysely<FawnTables>,
    private readonly sqlite: SqliteWorkerDialect | null,
  ) {}

  /**
   * Every failed query passes here (Kysely's error log). A missing table means the database was
   * emptied under us (dropped and created again): migrate again, once however many queries fail.
   */
  noteQueryError(error: unknown): void {
    if (this.closing === null && isMissingSchema(error)) void this.repairSchema().catch(() => {});
  }

  migrating(): boolean {
    return this.repairs.has("schema");
  }

  private repairSchema(): Promise<void> {
    return this.repairs.run("schema", () => migrate(this));
  }

  async checkHealth(): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(
        () => resolve({ up: false, reason: `no answer within ${HEALTH_TIMEOUT_MS} ms` }),
        HEALTH_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([this.probe(), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async probe(): Promise<StoreHealth> {
    const readSchema = () =>
      sql`select count(*) as applied from ${sql.table(MIGRATION_TABLE)}`.execute(this.db);
    try {
      await readSchema();
      return { up: true };
    } catch (error) {
      if (!isMissingSchema(error)) return { up: false, reason: describeError(error) };
    }
    try {
      await this.repairSchema();
      await readSchema();
      return { up: true };
    } catch (error) {
      return { up: false, reason: `schema missing and not restored: ${describeError(error)}` };
    }
  }

  /** Async work started inside a transaction may outlive it; it then falls back to the root. */
  private current(): TransactionScope | undefined {
    const scope = this.scope.getStore();
    return scope?.open === true ? scope : undefined;
  }

  executor(): SqlExecutor {
    return this.current()?.trx ?? this.db;
  }

  transaction<T>(fn: (trx: SqlExecutor) => Promise<T>): Promise<T> {
    const outer = this.current();
    if (outer !== undefined) return fn(outer.trx);
    return this.db.transaction().execute(async (trx) => {
      const scope: TransactionScope = { trx, open: true };
      try {
        return await this.scope.run(scope, () => fn(trx));
      } finally {
        scope.open = false;
      }
    });
  }

  async executeBatch(
    queries: readonly CompiledQuery[],
    options: { commit?: boolean } = {},
  ): Promise<QueryResult<unknown>[]> {
    const outer = this.current();
    if (queries.length === 0) return [];
    if (outer !== undefined) {
      // SQLite: the open transaction holds the one connection; its statements go in one message.
      if (this.sqlite !== null) {
        return this.sqlite.executeInOpenTransaction(queries, { commit: options.commit === true });
      }
      return runInOrder(outer.trx, queries);
    }
    if (this.sqlite !== null) return this.sqlite.executeBatch(queries);
    const [only] = queries;
    if (only !== undefined && queries.length === 1) return [await this.db.executeQuery(only)];
    return this.db.transaction().execute((trx) => runInOrder(trx, queries));
  }

  traffic(): SqlTraffic | null {
    return this.sqlite?.traffic() ?? null;
  }

  close(): Promise<void> {
    this.closing ??= this.db.destroy();
    return this.closing;
  }
}

async function runInOrder(
  executor: SqlExecutor,
  queries: readonly CompiledQuery[],
): Promise<QueryResult<unknown>[]> {
  const results: QueryResult<unknown>[] = [];
  for (const query of queries) results.push(await executor.executeQuery(query));
  return results;
}

function sqliteFilename(url: string): string {
  let rest = url.slice("sqlite:".length);
  if (rest.startsWith("//")) rest = rest.slice(2);
  if (rest === "")
    throw new ConfigError(
      `SQLite URL "${url}" names no file; use sqlite:<path> or sqlite::memory:.`,
    );
  return rest === ":memory:" ? rest : resolve(rest);
}

async function openKysely(
  url: string,
  options: OpenSqlDatabaseOptions,
  onQueryError: (error: unknown) => void,
): Promise<{
  dialect: SqlDialectName;
  db: Kysely<FawnTables>;
  sqlite: SqliteWorkerDialect | null;
}> {
  if (url.startsWith("sqlite:")) {
    const filename = sqliteFilename(url);
    if (filename !== ":memory:") await mkdir(dirname(filename), { recursive: true });
    const dialect = new SqliteWorkerDialect({
      filename,
      busyTimeoutMs: options.busyTimeoutMs ?? 30_000,
      countTraffic: options.countTraffic ?? false,
    });
    return {
      dialect: "sqlite",
      db: new Kysely<FawnTables>({ dialect, log: errorHook(onQueryError) }),
      sqlite: dialect,
    };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Fail instead of hanging forever when the server is unreachable.
      connectionTimeoutMillis: 10_000,
      statement_timeout: options.statementTimeoutMs ?? 30_000,
      // Connections older than this are retired, before a proxy's or firewall's idle cutoff.
      maxLifetimeSeconds: options.poolRecycleSeconds ?? 0,
    });
    // An idle client can lose its server connection; without a listener that 'error' event
    // would crash the process. The pool drops the client and the next query reconnects.
    pool.on("error", () => undefined);
    return {
      dialect: "postgres",
      db: new Kysely<FawnTables>({
        dialect: new PostgresDialect({ pool }),
        log: errorHook(onQueryError),
      }),
      sqlite: null,
    };
  }
  throw new ConfigError(
    `Unsupported database URL "${url.split(":")[0]}:…"; use sqlite:<path>, sqlite::memory: or postgres://….`,
  );
}

function errorHook(onQueryError: (error: unknown) => void): (event: LogEvent) => void {
  return (event) => {
    if (event.level === "error") onQueryError(event.error);
  };
}

async function migrate(database: SqlDatabase): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: fawnMigrationProvider(database.dialect),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const run = async (): Promise<void> => {
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) throw error;
  };
  if (database.dialect === "sqlite") {
    // One process owns a SQLite file's connection; the migration transaction (BEGIN IMMEDIATE)
    // is enough to serialize a second opener.
    await run();
    return;
  }
  // Serialize whole migration runs across processes, including the creation of the migration
  // bookkeeping tables that Kysely does before taking its own lock.
  await database.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${ADVISORY_CLASS_MIGRATIONS}, 0)`.execute(conn);
    try {
      await run();
    } finally {
      await sql`select pg_advisory_unlock(${ADVISORY_CLASS_MIGRATIONS}, 0)`.execute(conn);
    }
  });
}

/**
 * Opens `sqlite:<path>`, `sqlite::memory:` or `postgres://…` and brings its schema up to date.
 */
export async function openSqlDatabase(
  url: string,
  options: OpenSqlDatabaseOptions = {},
): Promise<SqlDatabase> {
  // The hook exists before the database object it reports to.
  let database: KyselySqlDatabase | null = null;
  const opened = await openKysely(url, options, (error) => database?.noteQueryError(error));
  database = new KyselySqlDatabase(opened.dialect, opened.db, opened.sqlite);
  try {
    await migrate(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw toStoreError(error, `migrate the ${opened.dialect} database`);
  }
  return database;
}
