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

  /**
   * @param {import("./sqlite-worker-protocol.js").SqliteStatement} statement
   * @returns {import("./sqlite-worker-protocol.js").SqliteQueryReply}
   */
  function run({ sql, params }) {
    const statement = prepare(sql);
    if (statement.reader) {
      const rows = /** @type {Record<string, unknown>[]} */ (statement.all(params));
      return { rows, changes: null, lastInsertRowid: null, readonly: statement.readonly };
    }
    const info = statement.run(params);
    return {
      rows: [],
      changes: info.changes,
      lastInsertRowid: info.lastInsertRowid,
      readonly: statement.readonly,
    };
  }

  /** Leaves no transaction open after a failure inside one the worker opened itself. */
  function rollbackQuietly() {
    if (!db.inTransaction) return;
    try {
      prepare("rollback").run();
    } catch {
      // Nothing more to do: SQLite rolls back on its own when it cannot continue.
    }
  }

  /**
   * @param {SqliteRequest} request
   * @returns {import("./sqlite-worker-protocol.js").SqliteQueryReply[]}
   */
  function handle(request) {
    switch (request.type) {
      case "query":
        if (request.begin === true) prepare("begin immediate").run();
        return [run(request)];
      case "batch":
        if (request.join === true) {
          if (request.begin === true) prepare("begin immediate").run();
          const replies = request.statements.map(run);
          if (request.commit === true) prepare("commit").run();
          return replies;
        }
        prepare("begin immediate").run();
        try {
          const replies = request.statements.map(run);
          prepare("commit").run();
          return replies;
        } catch (error) {
          rollbackQuietly();
          throw error;
        }
      case "batches":
        // Answered through `batchOutcomes`; never reaches here.
        return [];
      case "commit":
      case "rollback":
        try {
          prepare(request.type).run();
        } catch (error) {
          // A COMMIT nobody waits for (a read-only transaction) must not leave one open.
          if (request.id === 0) rollbackQuietly();
          throw error;
        }
        return [];
      default:
        return [];
    }
  }

  /**
   * Each batch in its own transaction; a failed one is rolled back alone.
   * @param {import("./sqlite-worker-protocol.js").SqliteBatchesRequest} request
   * @returns {import("./sqlite-worker-protocol.js").SqliteBatchOutcome[]}
   */
  function batchOutcomes(request) {
    return request.batches.map((statements) => {
      try {
        prepare("begin immediate").run();
        const replies = statements.map(run);
        prepare("commit").run();
        return { ok: true, replies };
      } catch (error) {
        rollbackQuietly();
        return { ok: false, error: toPayload(error) };
      }
    });
  }

  port.on("message", (/** @type {SqliteRequest} */ request) => {
    if (request.type === "batches") {
      post({ type: "batches", id: request.id, outcomes: batchOutcomes(request) });
      return;
    }
    if (request.type === "close") {
      try {
        db.close();
        post({ type: "result", id: request.id, ok: true, replies: [], inTransaction: false });
      } catch (error) {
        post({
          type: "result",
          id: request.id,
          ok: false,
          error: toPayload(error),
          inTransaction: false,
        });
      }
      port.close();
      return;
    }
    try {
      const replies = handle(request);
      if (request.id !== 0) {
        post({
          type: "result",
          id: request.id,
          ok: true,
          replies,
          inTransaction: db.inTransaction,
        });
      }
    } catch (error) {
      if (request.id !== 0) {
        post({
          type: "result",
          id: request.id,
          ok: false,
          error: toPayload(error),
          inTransaction: db.inTransaction,
        });
      }
    }
  });

  post({ type: "ready" });
}

const db = open();
if (db !== null) serve(db);
