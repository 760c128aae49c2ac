import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { ConnectionLock } from "./connection-lock.js";
import { isSqliteBusy } from "./sql-errors.js";
import { SqliteWorkerClient } from "./sqlite-worker-client.js";
import type { SqliteParam, SqliteQueryReply } from "./sqlite-worker-protocol.js";

/** better-sqlite3 binds neither booleans nor Dates; map them the way our schema stores them. */
function toSqliteParam(value: unknown): SqliteParam {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") {
    return value;
  }
  if (value instanceof Uint8Array) return value;
  // Objects reach here only through raw SQL; store them the way JSON columns are stored.
  return JSON.stringify(value);
}

const BUSY_ATTEMPTS = 5;
const BUSY_FIRST_DELAY_MS = 50;
const BUSY_MAX_DELAY_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class SqliteWorkerConnection implements DatabaseConnection {
  constructor(private readonly client: SqliteWorkerClient) {}

  /**
   * busy_timeout already waits inside the worker; a busy/locked error that still escapes is
   * retried here per statement. That is safe at statement level: a failed BEGIN IMMEDIATE or
   * autocommit statement did nothing, and SQLite allows a busy COMMIT to be retried.
   */
  private async queryWithBusyRetry(sql: string, params: SqliteParam[]): Promise<SqliteQueryReply> {
    let delay = BUSY_FIRST_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client.query(sql, params);
      } catch (error) {
        if (attempt >= BUSY_ATTEMPTS || !isSqliteBusy(error)) throw error;
        await sleep(delay);
        delay = Math.min(delay * 2, BUSY_MAX_DELAY_MS);
      }
    }
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const params = compiledQuery.parameters.map(toSqliteParam);
    const reply = await this.queryWithBusyRetry(compiledQuery.sql, params);
    const rows = reply.rows as R[];
    if (reply.changes === null) return { rows };
    return {
      rows,
      numAffectedRows: BigInt(reply.changes),
      insertId: reply.lastInsertRowid === null ? undefined : BigInt(reply.lastInsertRowid),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is unsupported; the generator only throws.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("The SQLite worker driver does not stream; page with limit/offset instead.");
  }
}

/**
 * One worker-hosted connection shared through a mutex, like Kysely's own SQLite driver. Write
 * transactions start with BEGIN IMMEDIATE so the write lock is taken up front: a deferred
 * transaction that reads and then writes can fail with SQLITE_BUSY instead of waiting.
 */
class SqliteWorkerDriver implements Driver {
  private readonly lock = new ConnectionLock();
  private client: SqliteWorkerClient | null = null;
  private connection: SqliteWorkerConnection | null = null;
  private release: (() => void) | null = null;

  constructor(
    private readonly filename: string,
    private readonly busyTimeoutMs: number,
  ) {}

  async init(): Promise<void> {
    this.client = await SqliteWorkerClient.open(this.filename, this.busyTimeoutMs);
    this.connection = new SqliteWorkerConnection(this.client);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.lock();
    if (this.connection === null) {
      release();
      throw new Error("The SQLite driver is not initialized.");
    }
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async destroy(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connection = null;
    await client?.close();
  }
}

export interface SqliteWorkerDialectConfig {
  /** A file path or `:memory:`. */
  filename: string;
  busyTimeoutMs?: number;
}

export class SqliteWorkerDialect implements Dialect {
  constructor(private readonly config: SqliteWorkerDialectConfig) {}

  createDriver(): Driver {
    return new SqliteWorkerDriver(this.config.filename, this.config.busyTimeoutMs ?? 30_000);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
