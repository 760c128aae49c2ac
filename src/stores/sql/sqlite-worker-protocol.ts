/**
 * Messages between the main thread and `sqlite-worker.js`. The worker is plain JavaScript (so it
 * runs unchanged under tsx, vitest and a compiled build); these types are the contract both sides
 * follow.
 */

/** A value better-sqlite3 can bind. Booleans and Dates are converted before posting. */
export type SqliteParam = string | number | bigint | Uint8Array | null;

export interface SqliteQueryRequest {
  type: "query";
  id: number;
  sql: string;
  params: SqliteParam[];
}

export interface SqliteCloseRequest {
  type: "close";
  id: number;
}

export type SqliteRequest = SqliteQueryRequest | SqliteCloseRequest;

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
}

export type SqliteResponse =
  | { type: "ready" }
  | { type: "fatal"; error: SqliteErrorPayload }
  | { type: "result"; id: number; ok: true; reply: SqliteQueryReply }
  | { type: "result"; id: number; ok: false; error: SqliteErrorPayload };

export interface SqliteWorkerData {
  filename: string;
  busyTimeoutMs: number;
}
