/**
 * Messages between the main thread and `sqlite-worker.js`. The worker is plain JavaScript (so it
 * runs unchanged under tsx, vitest and a compiled build); these types are the contract both sides
 * follow.
 *
 * Every message is a postMessage hop between threads, so the protocol lets one message carry what
 * used to take several: a statement together with the BEGIN of its transaction, a whole write
 * transaction (`batch`), and a read-only transaction's COMMIT that nobody waits for.
 */

/** A value better-sqlite3 can bind. Booleans and Dates are converted before posting. */
export type SqliteParam = string | number | bigint | Uint8Array | null;

export interface SqliteStatement {
  sql: string;
  params: SqliteParam[];
}

export interface SqliteQueryRequest extends SqliteStatement {
  type: "query";
  id: number;
  /** Run `BEGIN IMMEDIATE` first: the transaction's BEGIN travels with its first statement. */
  begin?: boolean;
}

/**
 * Statements run in order in one message. By default in their own `BEGIN IMMEDIATE … COMMIT`,
 * rolled back whole if any fails; with `join`, inside the transaction the caller has open (its
 * BEGIN sent first when `begin`), which the caller rolls back on failure and commits — or, with
 * `commit`, which the worker commits right after the statements.
 */
export interface SqliteBatchRequest {
  type: "batch";
  id: number;
  statements: SqliteStatement[];
  join?: boolean;
  begin?: boolean;
  commit?: boolean;
}

/**
 * Several batches in one message, each in its own `BEGIN IMMEDIATE … COMMIT` and rolled back
 * alone if it fails: the others still commit. Answered with one outcome per batch, in order.
 */
export interface SqliteBatchesRequest {
  type: "batches";
  id: number;
  batches: SqliteStatement[][];
}

/** Ends the open transaction. `id` 0 means nobody waits: the worker sends no reply. */
export interface SqliteEndRequest {
  type: "commit" | "rollback";
  id: number;
}

export interface SqliteCloseRequest {
  type: "close";
  id: number;
}

export type SqliteRequest =
  | SqliteQueryRequest
  | SqliteBatchRequest
  | SqliteBatchesRequest
  | SqliteEndRequest
  | SqliteCloseRequest;

/** The error as the worker saw it; `code` is better-sqlite3's, e.g. `SQLITE_CONSTRAINT_UNIQUE`. */
export interface SqliteErrorPayload {
  name: string;
  message: string;
  code: string | null;
}

export interface SqliteQueryReply {
  rows: Record<string, unknown>[];
  /** Rows changed by a non-reader statement; null for statements that return rows. */
  changes: number | null;
  lastInsertRowid: number | bigint | null;
  /** The statement changes nothing (sqlite3_stmt_readonly); a transaction of such can end unawaited. */
  readonly: boolean;
}

/** One batch's outcome inside a `batches` answer. */
export type SqliteBatchOutcome =
  | { ok: true; replies: SqliteQueryReply[] }
  | { ok: false; error: SqliteErrorPayload };

export type SqliteResponse =
  | { type: "ready" }
  | { type: "batches"; id: number; outcomes: SqliteBatchOutcome[] }
  | { type: "fatal"; error: SqliteErrorPayload }
  /** One reply per statement run (a query: one; a batch: one per statement; commit/close: none). */
  | { type: "result"; id: number; ok: true; replies: SqliteQueryReply[]; inTransaction: boolean }
  | {
      type: "result";
      id: number;
      ok: false;
      error: SqliteErrorPayload;
      /** Whether a transaction is open after the failure (a failed BEGIN leaves none). */
      inTransaction: boolean;
    };

export interface SqliteWorkerData {
  filename: string;
  busyTimeoutMs: number;
}
