import { Worker } from "node:worker_threads";
import { StoreError } from "../../core/errors.js";
import type {
  SqliteErrorPayload,
  SqliteParam,
  SqliteQueryReply,
  SqliteRequest,
  SqliteResponse,
  SqliteWorkerData,
} from "./sqlite-worker-protocol.js";

/** An error raised by SQLite inside the worker; keeps the driver's code for classification. */
export class SqliteWorkerError extends Error {
  readonly code: string | null;

  constructor(payload: SqliteErrorPayload) {
    super(payload.message);
    this.name = payload.name === "SqliteError" ? "SqliteError" : "SqliteWorkerError";
    this.code = payload.code;
  }
}

interface Pending {
  resolve(reply: SqliteQueryReply): void;
  reject(error: Error): void;
}

type RequestBody = { type: "query"; sql: string; params: SqliteParam[] } | { type: "close" };

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

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: SqliteResponse) => this.onMessage(message));
    worker.on("error", (error: Error) => this.fail(error));
    worker.on("exit", (code) => {
      if (!this.closed) this.fail(new Error(`SQLite worker exited unexpectedly (code ${code})`));
    });
  }

  static async open(filename: string, busyTimeoutMs: number): Promise<SqliteWorkerClient> {
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
    const client = new SqliteWorkerClient(worker);
    worker.unref();
    return client;
  }

  query(sql: string, params: SqliteParam[]): Promise<SqliteQueryReply> {
    return this.send({ type: "query", sql, params });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.failure === null) await this.send({ type: "close" }).catch(() => undefined);
    this.closed = true;
    await this.worker.terminate();
  }

  private send(body: RequestBody): Promise<SqliteQueryReply> {
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
    return new Promise<SqliteQueryReply>((resolve, reject) => {
      // Keep the process alive only while a request is in flight.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private onMessage(message: SqliteResponse): void {
    if (message.type !== "result") return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.ok) pending.resolve(message.reply);
    else pending.reject(new SqliteWorkerError(message.error));
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
