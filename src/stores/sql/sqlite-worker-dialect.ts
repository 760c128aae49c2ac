import {
  type CompiledQuery,
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
import type { SqlTraffic } from "./sql-traffic.js";
import { SqliteBatchQueue } from "./sqlite-batch-queue.js";
import { isBusyBeforeAnyChange, withBusyRetry } from "./sqlite-busy-retry.js";
import { SqliteWorkerClient, SqliteWorkerError } from "./sqlite-worker-client.js";
import type { SqliteParam, SqliteQueryReply, SqliteStatement } from "./sqlite-worker-protocol.js";

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

function toQueryResult<R>(reply: SqliteQueryReply): QueryResult<R> {
  const rows = reply.rows as R[];
  if (reply.changes === null) return { rows };
  return {
    rows,
    numAffectedRows: BigInt(reply.changes),
    insertId: reply.lastInsertRowid === null ? undefined : BigInt(reply.lastInsertRowid),
  };
}

const toStatement = (query: CompiledQuery): SqliteStatement => ({
  sql: query.sql,
  params: query.parameters.map(toSqliteParam),
});

/**
 * The one connection, with its transaction state kept here so BEGIN costs no message of its own:
 * it travels with the transaction's first statement, an empty transaction sends nothing, and a
 * transaction that only read ends with a COMMIT nobody waits for.
 */
class SqliteWorkerConnection implements DatabaseConnection {
  /** BEGIN requested but not sent yet. */
  private beginPending = false;
  /** A transaction is open in the worker (as of its last answer). */
  private open = false;
  /** Every statement of the open transaction changed nothing. */
  private readOnly = true;
  /** A batch committed the transaction early; Kysely's own COMMIT is then a no-op. */
  private ended = false;

  constructor(private readonly client: SqliteWorkerClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    this.assertNotEnded();
    const statement = toStatement(compiledQuery);
    const begin = this.beginPending;
    try {
      const result = await withBusyRetry(
        () => this.client.query(statement, { begin }),
        // A statement inside an open transaction is retried too (as before batching).
        begin ? isBusyBeforeAnyChange : isSqliteBusy,
      );
      this.open = result.inTransaction;
      const [reply] = result.replies;
      if (reply === undefined) throw new Error("The SQLite worker answered a query with no reply.");
      if (!reply.readonly) this.readOnly = false;
      return toQueryResult<R>(reply);
    } catch (error) {
      if (error instanceof SqliteWorkerError) this.open = error.inTransaction;
      throw error;
    } finally {
      if (begin && this.open) this.beginPending = false;
    }
  }

  beginTransaction(): void {
    this.beginPending = true;
    this.readOnly = true;
    this.ended = false;
  }

  async commitTransaction(): Promise<void> {
    if (this.ended) {
      this.ended = false;
      return;
    }
    if (this.beginPending) {
      this.beginPending = false;
      return;
    }
    if (!this.open) throw new Error("COMMIT without an open SQLite transaction.");
    if (this.readOnly) {
      this.open = false;
      await this.client.end("commit", { awaitReply: false });
      return;
    }
    await withBusyRetry(() => this.client.end("commit", { awaitReply: true }), isSqliteBusy);
    this.open = false;
  }

  async rollbackTransaction(): Promise<void> {
    this.beginPending = false;
    // After an early commit there is nothing left to roll back.
    this.ended = false;
    if (!this.open) return;
    try {
      await this.client.end("rollback", { awaitReply: true });
    } finally {
      this.open = false;
    }
  }

  /**
   * Statements inside the open transaction, in one message; its BEGIN goes along if pending, and
   * with `commit` its COMMIT too — the statements are then the transaction's last.
   */
  async executeInTransaction(
    queries: readonly CompiledQuery[],
    options: { commit: boolean },
  ): Promise<QueryResult<unknown>[]> {
    this.assertNotEnded();
    const statements = queries.map(toStatement);
    const begin = this.beginPending;
    try {
      const result = await withBusyRetry(
        () => this.client.batchInTransaction(statements, { begin, commit: options.commit }),
        begin ? isBusyBeforeAnyChange : () => false,
      );
      this.open = result.inTransaction;
      // The BEGIN went with this message; when the COMMIT went too, `open` is false again, so
      // the pending flag must be cleared here or the next statement would begin a transaction
      // nobody commits (holding SQLite's write lock).
      this.beginPending = false;
      if (options.commit && !result.inTransaction) this.ended = true;
      if (result.replies.some((reply) => !reply.readonly)) this.readOnly = false;
      return result.replies.map((reply) => toQueryResult<unknown>(reply));
    } catch (error) {
      if (error instanceof SqliteWorkerError) this.open = error.inTransaction;
      // Some statements may have run before the failure: the transaction must not end unawaited.
      this.readOnly = false;
      throw error;
    } finally {
      if (begin && this.open) this.beginPending = false;
    }
  }

  private assertNotEnded(): void {
    if (this.ended) {
      throw new Error(
        "This SQLite transaction was already committed by its last batch; run nothing after executeBatch(…, { commit: true }).",
      );
    }
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
  private readonly batches = new SqliteBatchQueue(this.lock, () => this.client);
  private client: SqliteWorkerClient | null = null;
  private connection: SqliteWorkerConnection | null = null;
  private release: (() => void) | null = null;

  constructor(private readonly config: Required<SqliteWorkerDialectConfig>) {}

  async init(): Promise<void> {
    this.client = await SqliteWorkerClient.open(this.config.filename, this.config.busyTimeoutMs, {
      countTraffic: this.config.countTraffic,
    });
    this.connection = new SqliteWorkerConnection(this.client);
  }

  get traffic(): SqlTraffic | null {
    return this.client?.traffic ?? null;
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
    this.own(connection).beginTransaction();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.own(connection).commitTransaction();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.own(connection).rollbackTransaction();
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  /**
   * Runs the statements as one write transaction, in turn with every other user of the
   * connection (see `SqliteBatchQueue`).
   */
  async executeBatch(queries: readonly CompiledQuery[]): Promise<QueryResult<unknown>[]> {
    const replies = await this.batches.run(queries.map(toStatement));
    return replies.map((reply) => toQueryResult<unknown>(reply));
  }

  /**
   * Runs the statements inside the transaction that holds the connection now. Only for a caller
   * inside that transaction (SQLite has this one connection, so it is the one holding it).
   */
  async executeInOpenTransaction(
    queries: readonly CompiledQuery[],
    options: { commit: boolean },
  ): Promise<QueryResult<unknown>[]> {
    if (this.connection === null || this.release === null) {
      throw new Error("No SQLite transaction holds the connection.");
    }
    return this.connection.executeInTransaction(queries, options);
  }

  async destroy(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connection = null;
    await client?.close();
  }

  private own(connection: DatabaseConnection): SqliteWorkerConnection {
    if (connection !== this.connection || this.connection === null) {
      throw new Error("The SQLite driver was handed a connection it does not own.");
    }
    return this.connection;
  }
}

export interface SqliteWorkerDialectConfig {
  /** A file path or `:memory:`. */
  filename: string;
  busyTimeoutMs?: number;
  /** Count statements, transactions and worker messages (see `SqlTraffic`). */
  countTraffic?: boolean;
}

export class SqliteWorkerDialect implements Dialect {
  private driver: SqliteWorkerDriver | null = null;

  constructor(private readonly config: SqliteWorkerDialectConfig) {}

  createDriver(): Driver {
    this.driver = new SqliteWorkerDriver({
      filename: this.config.filename,
      busyTimeoutMs: this.config.busyTimeoutMs ?? 30_000,
      countTraffic: this.config.countTraffic ?? false,
    });
    return this.driver;
  }

  /** What the connection has sent, when counting is on (null before the first query). */
  traffic(): SqlTraffic | null {
    return this.driver?.traffic ?? null;
  }

  /** Statements inside the transaction open in the caller's context, in one worker message. */
  executeInOpenTransaction(
    queries: readonly CompiledQuery[],
    options: { commit: boolean },
  ): Promise<QueryResult<unknown>[]> {
    if (this.driver === null) return Promise.reject(new Error("The SQLite driver is not created."));
    return this.driver.executeInOpenTransaction(queries, options);
  }

  /** One write transaction in one worker message; see `SqlDatabase.executeBatch`. */
  executeBatch(queries: readonly CompiledQuery[]): Promise<QueryResult<unknown>[]> {
    if (this.driver === null) return Promise.reject(new Error("The SQLite driver is not created."));
    return this.driver.executeBatch(queries);
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
