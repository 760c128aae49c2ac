import { Worker } from "node:worker_threads";
import { StoreError } from "../../core/errors.js";
import { emptyTraffic, type SqlTraffic } from "./sql-traffic.js";
import type {
  SqliteBatchesRequest,
  SqliteBatchOutcome,
  SqliteBatchRequest,
  SqliteCloseRequest,
  SqliteEndRequest,
  SqliteErrorPayload,
  SqliteQueryReply,
  SqliteQueryRequest,
  SqliteRequest,
  SqliteResponse,
  SqliteStatement,
  SqliteWorkerData,
} from "./sqlite-worker-protocol.js";

/** An error raised by SQLite inside the worker; keeps the driver's code for classification. */
export class SqliteWorkerError extends Error {
  readonly code: string | null;
  /** Whether the connection still had a transaction open after the failure. */
  readonly inTransaction: boolean;

  constructor(payload: SqliteErrorPayload, inTransaction = false) {
    super(payload.message);
    this.name = payload.name === "SqliteError" ? "SqliteError" : "SqliteWorkerError";
    this.code = payload.code;
    this.inTransaction = inTransaction;
  }
}

/** What one answered request brings back. */
export interface SqliteResult {
  replies: SqliteQueryReply[];
  inTransaction: boolean;
  /** A `batches` request's outcome per batch (empty for every other request). */
  outcomes: SqliteBatchOutcome[];
}

interface Pending {
  resolve(result: SqliteResult): void;
  reject(error: Error): void;
}

/** A request as the caller writes it; the client assigns the id. */
type RequestBody =
  | Omit<SqliteQueryRequest, "id">
  | Omit<SqliteBatchRequest, "id">
  | Omit<SqliteBatchesRequest, "id">
  | Omit<SqliteEndRequest, "id">
  | Omit<SqliteCloseRequest, "id">;

const isStatementFree = (sql: string): boolean => /^\s*(begin|commit|rollback)\b/i.test(sql);

const WORKER_URL = new URL("./sqlite-worker.js", import.meta.url);

/**
 * One better-sqlite3 connection living in a worker thread. Requests are answered in order; the
 * worker is unref'd while idle so an open database never keeps a finished process alive.
 */
export class SqliteWorkerClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;
  private closed = false;
  /** Counts of what was sent, when the opener asked for them. */
  readonly traffic: SqlTraffic | null;

  private constructor(
    private readonly worker: Worker,
    countTraffic: boolean,
  ) {
    this.traffic = countTraffic ? emptyTraffic() : null;
    worker.on("message", (message: SqliteResponse) => this.onMessage(message));
    worker.on("error", (error: Error) => this.fail(error));
    worker.on("exit", (code) => {
      if (!this.closed) this.fail(new Error(`SQLite worker exited unexpectedly (code ${code})`));
    });
  }

  static async open(
    filename: string,
    busyTimeoutMs: number,
    options: { countTraffic?: boolean } = {},
  ): Promise<SqliteWorkerClient> {
    const workerData: SqliteWorkerData = { filename, busyTimeoutMs };
    const worker = new Worker(WORKER_URL, { workerData });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: SqliteResponse): void => {
        cleanup();
        if (message.type === "ready") resolve();
        else if (message.type === "fatal") reject(new SqliteWorkerError(message.error));
        else reject(new Error("SQLite worker answered before it was ready"));
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new Error(`SQLite worker exited during startup (code ${code})`));
      };
      const cleanup = (): void => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw new StoreError(`Cannot open SQLite database "${filename}": ${String(error)}`, {
        cause: error,
      });
    });
    const client = new SqliteWorkerClient(worker, options.countTraffic === true);
    worker.unref();
    return client;
  }

  /** One statement; with `begin`, the worker opens the transaction (BEGIN IMMEDIATE) first. */
  async query(
    statement: SqliteStatement,
    options: { begin?: boolean } = {},
  ): Promise<SqliteResult> {
    if (this.traffic !== null) {
      if (!isStatementFree(statement.sql)) this.traffic.statements += 1;
      if (options.begin === true || /^\s*begin\b/i.test(statement.sql))
        this.traffic.transactions += 1;
    }
    return this.send({
      type: "query",
      sql: statement.sql,
      params: statement.params,
      ...(options.begin === true ? { begin: true } : {}),
    });
  }

  /** A whole write transaction in one message: all statements commit, or none. */
  async batch(statements: SqliteStatement[]): Promise<SqliteQueryReply[]> {
    if (this.traffic !== null) {
      this.traffic.statements += statements.length;
      this.traffic.transactions += 1;
    }
    return (await this.send({ type: "batch", statements })).replies;
  }

  /**
   * Several whole write transactions in one message, each committed or rolled back on its own:
   * one outcome per batch, in order.
   */
  async batches(batches: SqliteStatement[][]): Promise<SqliteBatchOutcome[]> {
    if (this.traffic !== null) {
      for (const statements of batches) this.traffic.statements += statements.length;
      this.traffic.transactions += batches.length;
    }
    return (await this.send({ type: "batches", batches })).outcomes;
  }

  /**
   * Statements in order inside the caller's open transaction (begun first when `begin`; committed
   * right after them when `commit`).
   */
  async batchInTransaction(
    statements: SqliteStatement[],
    options: { begin: boolean; commit: boolean },
  ): Promise<SqliteResult> {
    if (this.traffic !== null) {
      this.traffic.statements += statements.length;
      if (options.begin) this.traffic.transactions += 1;
    }
    return this.send({
      type: "batch",
      statements,
      join: true,
      ...(options.begin ? { begin: true } : {}),
      ...(options.commit ? { commit: true } : {}),
    });
  }

  /**
   * Ends the open transaction. A read-only transaction's COMMIT is posted without waiting: it
   * changes nothing, the worker handles messages in order, and it rolls back if COMMIT fails.
   */
  async end(kind: "commit" | "rollback", options: { awaitReply: boolean }): Promise<void> {
    if (options.awaitReply) {
      await this.send({ type: kind });
      return;
    }
    this.assertUsable();
    if (this.traffic !== null) this.traffic.messages += 1;
    const request: SqliteRequest = { type: kind, id: 0 };
    this.worker.postMessage(request);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.failure === null) await this.send({ type: "close" }).catch(() => undefined);
    this.closed = true;
    await this.worker.terminate();
  }

  private assertUsable(): void {
    if (this.closed) throw new StoreError("The SQLite database is closed.");
    if (this.failure !== null) {
      throw new StoreError("The SQLite worker has failed; reopen the database.", {
        cause: this.failure,
      });
    }
  }

  private send(body: RequestBody): Promise<SqliteResult> {
    if (this.closed) return Promise.reject(new StoreError("The SQLite database is closed."));
    if (this.failure !== null) {
      return Promise.reject(
        new StoreError("The SQLite worker has failed; reopen the database.", {
          cause: this.failure,
        }),
      );
    }
    const id = this.nextId++;
    const request: SqliteRequest = { ...body, id };
    if (this.traffic !== null) {
      this.traffic.messages += 1;
      this.traffic.roundTrips += 1;
    }
    return new Promise<SqliteResult>((resolve, reject) => {
      // Keep the process alive only while a request is in flight.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private onMessage(message: SqliteResponse): void {
    if (message.type !== "result" && message.type !== "batches") return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.type === "batches") {
      pending.resolve({ replies: [], inTransaction: false, outcomes: message.outcomes });
    } else if (message.ok) {
      pending.resolve({
        replies: message.replies,
        inTransaction: message.inTransaction,
        outcomes: [],
      });
    } else {
      pending.reject(new SqliteWorkerError(message.error, message.inTransaction));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const pending of waiting) {
      pending.reject(new StoreError("The SQLite worker failed.", { cause: error }));
    }
  }
}
