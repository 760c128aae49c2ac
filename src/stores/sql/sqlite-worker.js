// @ts-check
/**
 * Owns the one better-sqlite3 connection of a SqliteWorkerClient. better-sqlite3 is synchronous,
 * so running it here keeps every query (and every busy wait) off the main event loop.
 *
 * Plain JavaScript on purpose: a worker is loaded by Node itself, outside vitest's and tsx's
 * TypeScript transforms, and a .js file needs no loader in any of them. The message types are in
 * sqlite-worker-protocol.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/** @typedef {import("./sqlite-worker-protocol.js").SqliteRequest} SqliteRequest */
/** @typedef {import("./sqlite-worker-protocol.js").SqliteResponse} SqliteResponse */
/** @typedef {import("./sqlite-worker-protocol.js").SqliteErrorPayload} SqliteErrorPayload */
/** @typedef {import("./sqlite-worker-protocol.js").SqliteWorkerData} SqliteWorkerData */

const STATEMENT_CACHE_SIZE = 200;

if (parentPort === null) throw new Error("sqlite-worker.js must run inside a worker thread");
const port = parentPort;
const config = /** @type {SqliteWorkerData} */ (workerData);

/** @param {SqliteResponse} message */
function post(message) {
  port.postMessage(message);
}

/**
 * @param {unknown} error
 * @returns {SqliteErrorPayload}
 */
function toPayload(error) {
  if (error instanceof Error) {
    const code = "code" in error && typeof error.code === "string" ? error.code : null;
    return { name: error.name, message: error.message, code };
  }
  return { name: "Error", message: String(error), code: null };
}

/**
 * Opens the connection, or reports why not. The failure is reported as a message (and the port
 * closed so the worker ends quietly) rather than thrown: an uncaught error would also reach the
 * host as an 'error' event after it has stopped listening.
 * @returns {import("better-sqlite3").Database | null}
 */
function open() {
  try {
    const opened = new Database(config.filename);
    opened.pragma("journal_mode = WAL");
    opened.pragma("synchronous = NORMAL");
    opened.pragma("foreign_keys = ON");
    opened.pragma(`busy_timeout = ${Math.trunc(config.busyTimeoutMs)}`);
    return opened;
  } catch (error) {
    post({ type: "fatal", error: toPayload(error) });
    port.close();
    return null;
  }
}

/** @param {import("better-sqlite3").Database} db */
function serve(db) {
  /** Prepared statements by SQL text, least recently used first. */
  /** @type {Map<string, import("better-sqlite3").Statement>} */
  const statements = new Map();

  /** @param {string} sql */
  function prepare(sql) {
    const cached = statements.get(sql);
    if (cached !== undefined) {
      statements.delete(sql);
      statements.set(sql, cached);
      return cached;
    }
    const statement = db.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = statements.keys().next();
      if (oldest.done !== true) statements.delete(oldest.value);
    }
    return statement;
  }

  port.on("message", (/** @type {SqliteRequest} */ request) => {
    if (request.type === "close") {
      try {
        db.close();
        post({
          type: "result",
          id: request.id,
          ok: true,
          reply: { rows: [], changes: null, lastInsertRowid: null },
        });
      } catch (error) {
        post({ type: "result", id: request.id, ok: false, error: toPayload(error) });
      }
      port.close();
      return;
    }
    try {
      const statement = prepare(request.sql);
      if (statement.reader) {
        const rows = /** @type {Record<string, unknown>[]} */ (statement.all(request.params));
        post({
          type: "result",
          id: request.id,
          ok: true,
          reply: { rows, changes: null, lastInsertRowid: null },
        });
      } else {
        const info = statement.run(request.params);
        post({
          type: "result",
          id: request.id,
          ok: true,
          reply: { rows: [], changes: info.changes, lastInsertRowid: info.lastInsertRowid },
        });
      }
    } catch (error) {
      post({ type: "result", id: request.id, ok: false, error: toPayload(error) });
    }
  });

  post({ type: "ready" });
}

const db = open();
if (db !== null) serve(db);
