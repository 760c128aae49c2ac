import { setImmediate as yieldToLoop } from "node:timers/promises";
import { CompiledQuery } from "kysely";
import type { NewRunEvent } from "../../ports/run-event-store.js";
import type { WriteFence } from "../../ports/write-fence.js";
import { threadEventsLockQuery } from "./advisory-locks.js";
import { type EncodedEvent, encodeEvent } from "./event-codec.js";
import type { SqlDialectName } from "./sql-dialect-name.js";
import { fenceReadQuery, ownedByWriter } from "./sql-fence.js";
import { sqlStatement } from "./sql-text.js";

/**
 * The statements of `SqlRunEventStore`'s writes, as SQL text: a batch's chunked INSERTs and a
 * singleton's conditional INSERT. Building them needs no answer from the database, so a batch is
 * prepared while it waits for its thread's lock.
 */

/** The `run_events` columns an insert writes, in order (the raw-insert bench replays them too). */
export const INSERT_COLUMNS = [
  "thread_id",
  "run_id",
  "user_id",
  "event_type",
  "category",
  "content",
  "event_metadata",
  "created_at",
  "seq",
] as const;
/**
 * Largest rows per INSERT. SQLite prepares each text once per connection (a fresh connection, a
 * fresh cost) and inserts no faster per row beyond ~64 rows a statement, so it keeps its texts
 * small and few. PostgreSQL parses every statement anyway and pays a round trip per chunk, so it
 * takes larger chunks.
 */
const MAX_INSERT_ROWS: Record<SqlDialectName, number> = { sqlite: 64, postgres: 512 };
/** Events encoded between two yields to the event loop. */
export const ENCODE_SLICE = 256;

/** An event's values in `INSERT_COLUMNS` order, without the seq. */
function eventValues(event: EncodedEvent): Array<string | null> {
  return [
    event.thread_id,
    event.run_id,
    event.user_id,
    event.event_type,
    event.category,
    event.content,
    event.metadata,
    event.created_at,
  ];
}

/**
 * Multi-row INSERT texts by row count. SQLite's batches are cut into power-of-two chunks, so seven
 * texts exist and the worker prepares each once; PostgreSQL's full chunks share one text (with or
 * without `RETURNING seq`) and a remainder's is built for it. No query builder runs per batch.
 * The rows are a VALUES list joined once to the thread's max seq before the statement, each row's
 * seq that max plus the row's offset (a chunk after another in the same transaction sees that
 * one's rows, as it should). Not a scalar subquery per row: PostgreSQL plans each of those apart
 * (a 512-row chunk took ~3× the server time of a plain INSERT), and SQLite prepares the plain
 * VALUES list several times faster.
 */
const insertTexts = new Map<string, string>();

function insertText(
  dialect: SqlDialectName,
  rows: number,
  returning: boolean,
  fenced: boolean,
): string {
  const key = `${dialect}:${rows}:${returning}:${fenced}`;
  const cached = insertTexts.get(key);
  if (cached !== undefined) return cached;
  const width = INSERT_COLUMNS.length - 1;
  const tuples = Array.from({ length: rows }, (_, row) => {
    const slots = Array.from({ length: width }, (_, index) =>
      // $1 is the thread id of the max-seq read.
      dialect === "sqlite" ? "?" : `$${row * width + index + 2}`,
    );
    return `(${slots.join(", ")}, ${row + 1})`;
  });
  const base = "(select coalesce(max(seq), 0) as m from run_events where thread_id = ?) as b";
  // PostgreSQL types untyped VALUES parameters as text: the two other columns are cast once.
  const text =
    dialect === "sqlite"
      ? `insert into run_events (${INSERT_COLUMNS.join(", ")}) select v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, b.m + v.column9 from ${base}, (values ${tuples.join(", ")}) as v`
      : `insert into run_events (${INSERT_COLUMNS.join(", ")}) select v.c1, v.c2, v.c3, v.c4, v.c5, v.c6, v.c7::jsonb, v.c8::timestamptz, b.m + v.n from ${base.replace("?", "$1")}, (values ${tuples.join(", ")}) as v(c1, c2, c3, c4, c5, c6, c7, c8, n)`;
  const fence = fenced ? ` where ${ownedByWriter(dialect, rows * width + 2)}` : "";
  const full = `${text}${fence}${returning ? " returning seq" : ""}`;
  // PostgreSQL's remainders come in any size (see `postgresChunkSizes`): only full chunks repeat.
  if (dialect === "sqlite" || rows === MAX_INSERT_ROWS.postgres) insertTexts.set(key, full);
  return full;
}

/**
 * SQLite: the thread's max seq once its chunks are in, one small statement of one shape, instead
 * of a `RETURNING` twin of every chunk text (twice the texts to prepare, and a reply row per row).
 */
function maxSeqQuery(threadId: string): CompiledQuery {
  return CompiledQuery.raw("select max(seq) as seq from run_events where thread_id = ?", [
    threadId,
  ]);
}

function insertChunk(
  dialect: SqlDialectName,
  threadId: string,
  chunk: readonly EncodedEvent[],
  returning: boolean,
  fence: WriteFence | undefined,
): CompiledQuery {
  const params: Array<string | null> = [threadId];
  for (const event of chunk) params.push(...eventValues(event));
  if (fence) params.push(fence.runId, fence.workerId);
  return CompiledQuery.raw(
    insertText(dialect, chunk.length, returning, fence !== undefined),
    params,
  );
}

/**
 * A run-scoped singleton event (one per run and type), inserted only when the run has none yet,
 * at the thread's next seq; returns the seq it took, or no row. On PostgreSQL the bound values of
 * an INSERT … SELECT carry no column types, hence the casts.
 */
function insertSingletonQuery(
  dialect: SqlDialectName,
  event: EncodedEvent,
  fence: WriteFence | undefined,
): CompiledQuery {
  const columns = INSERT_COLUMNS.join(", ");
  const fenced = fence ? `\nand ${ownedByWriter(dialect, 9)}` : "";
  const text =
    dialect === "sqlite"
      ? `insert into run_events (${columns})
select ?, ?, ?, ?, ?, ?, ?, ?,
  (select coalesce(max(seq), 0) + 1 from run_events where thread_id = ?)
where not exists (select 1 from run_events where thread_id = ? and run_id = ? and event_type = ?)${fenced}
returning seq`
      : `insert into run_events (${columns})
select $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz,
  (select coalesce(max(seq), 0) + 1 from run_events where thread_id = $1::text)
where not exists (
  select 1 from run_events where thread_id = $1::text and run_id = $2::text and event_type = $4::text
)${fenced}
returning seq`;
  const values = eventValues(event);
  const params =
    dialect === "sqlite"
      ? [...values, event.thread_id, event.thread_id, event.run_id, event.event_type]
      : values;
  if (fence) params.push(fence.runId, fence.workerId);
  return CompiledQuery.raw(text, params);
}

/**
 * PostgreSQL: full chunks, then the rest in one. It parses every statement anyway (nothing is
 * prepared by text), so fixed shapes buy nothing there, while every chunk costs a round trip.
 */
export function postgresChunkSizes(count: number): number[] {
  const max = MAX_INSERT_ROWS.postgres;
  const sizes: number[] = Array.from({ length: Math.floor(count / max) }, () => max);
  if (count % max > 0) sizes.push(count % max);
  return sizes;
}

/** `count` as power-of-two chunk sizes, largest first (at most `maxRows`, a power of two, each). */
export function chunkSizes(count: number, maxRows = MAX_INSERT_ROWS.sqlite): number[] {
  const sizes: number[] = [];
  let left = count;
  while (left >= maxRows) {
    sizes.push(maxRows);
    left -= maxRows;
  }
  for (let size = maxRows / 2; size >= 1; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/** A batch encoded and cut into statements, before it is written. */
export interface PreparedBatch {
  encoded: EncodedEvent[];
  /** Rows per thread. */
  rowsOf: Map<string, number>;
  statements: CompiledQuery[];
  /** The statement whose answer holds the thread's new max seq. */
  maxSeqAt: Map<string, number>;
  /** The fence's read, when the batch is fenced. */
  fenceAt: number | null;
}

/**
 * Encodes a batch and builds its statements: all the work that needs no answer, done while the
 * batch waits for its lock, so little is left between one batch's reply and the next one's
 * start. Rejects on any event the tables cannot hold.
 */
export async function prepareBatch(
  dialect: SqlDialectName,
  events: readonly NewRunEvent[],
  fence: WriteFence | undefined,
  now: string,
): Promise<PreparedBatch> {
  const encoded: EncodedEvent[] = [];
  for (const event of events) {
    encoded.push(encodeEvent(event, now));
    // A batch that piled up behind a slow write can be thousands of events: let other work on
    // the event loop run in between (the lock's place in line is already taken).
    if (encoded.length % ENCODE_SLICE === 0) await yieldToLoop();
  }
  const byThread = new Map<string, EncodedEvent[]>();
  for (const event of encoded) {
    const rows = byThread.get(event.thread_id);
    if (rows === undefined) byThread.set(event.thread_id, [event]);
    else rows.push(event);
  }
  const statements: CompiledQuery[] =
    dialect === "postgres" ? [...byThread.keys()].sort().map(threadEventsLockQuery) : [];
  const fenceAt = fence ? statements.length : null;
  if (fence) statements.push(fenceReadQuery(dialect, fence));
  // Where each thread's new max seq comes back: PostgreSQL, the thread's last (smallest) chunk
  // returns its seqs; SQLite, a max-seq read after the thread's chunks.
  const maxSeqAt = new Map<string, number>();
  const rowsOf = new Map<string, number>();
  for (const [threadId, rows] of byThread) {
    rowsOf.set(threadId, rows.length);
    const sizes = dialect === "sqlite" ? chunkSizes(rows.length) : postgresChunkSizes(rows.length);
    let start = 0;
    sizes.forEach((size, index) => {
      const returning = dialect === "postgres" && index === sizes.length - 1;
      if (returning) maxSeqAt.set(threadId, statements.length);
      statements.push(
        insertChunk(dialect, threadId, rows.slice(start, start + size), returning, fence),
      );
      start += size;
    });
    if (dialect === "sqlite") {
      maxSeqAt.set(threadId, statements.length);
      statements.push(maxSeqQuery(threadId));
    }
  }
  return { encoded, rowsOf, statements, maxSeqAt, fenceAt };
}

/** A singleton's one batch: where its fence read and its existing-event read come back. */
export interface SingletonBatch {
  statements: CompiledQuery[];
  /** The fence's read, when the write is fenced. */
  fenceAt: number | null;
}

/**
 * (PostgreSQL: the thread's event lock), (the fence's read), the existing singleton's read, then
 * the insert that happens only when there is none: the last two answers decide.
 */
export function singletonBatch(
  dialect: SqlDialectName,
  encoded: EncodedEvent,
  fence: WriteFence | undefined,
): SingletonBatch {
  const threadId = encoded.thread_id;
  const statements: CompiledQuery[] =
    dialect === "postgres" ? [threadEventsLockQuery(threadId)] : [];
  const fenceAt = fence ? statements.length : null;
  if (fence) statements.push(fenceReadQuery(dialect, fence));
  statements.push(
    sqlStatement(
      dialect,
      "select * from run_events where thread_id = ? and run_id = ? and event_type = ? order by seq limit 1",
      [threadId, encoded.run_id, encoded.event_type],
    ),
    insertSingletonQuery(dialect, encoded, fence),
  );
  return { statements, fenceAt };
}
