import { setImmediate as yieldToLoop } from "node:timers/promises";
import {
  CompiledQuery,
  type Expression,
  type QueryResult,
  type Selectable,
  type SqlBool,
  sql,
} from "kysely";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ConflictError } from "../../core/errors.js";
import type {
  EvidenceReceipt,
  ListEventsOptions,
  ListMessagesOptions,
  NewRunEvent,
  PutIfAbsentOptions,
  PutIfAbsentResult,
  RunEvent,
  RunEventStore,
} from "../../ports/run-event-store.js";
import type { FencedWrite, WriteFence } from "../../ports/write-fence.js";
import { lockThreadEvents } from "./advisory-locks.js";
import { toNumber } from "./codec.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import {
  type EncodedEvent,
  encodeEvent,
  eventRow,
  runEventFromDb,
  storedEnvelope,
} from "./event-codec.js";
import type { RunEventsTable } from "./schema.js";
import type { SqlDialectName } from "./sql-dialect-name.js";
import { toStoreError } from "./sql-errors.js";
import { checkFenceRead, fenceReadQuery } from "./sql-fence.js";
import type { SqlStoreOptions } from "./sql-run-store.js";
import { sqlStatement } from "./sql-text.js";

const DEFAULT_EVENT_LIMIT = 500;
const DEFAULT_MESSAGE_LIMIT = 50;
const INSERT_COLUMNS = [
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
const ENCODE_SLICE = 256;

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
 * The write fence inside an INSERT … SELECT: rows are inserted only while the run's row names the
 * writer as its owner. Its two parameters (run id, worker id) come last; `first` is PostgreSQL's
 * number of the first.
 */
function ownedByWriter(dialect: SqlDialectName, first: number): string {
  const [run, worker] = dialect === "sqlite" ? ["?", "?"] : [`$${first}`, `$${first + 1}`];
  return `exists (select 1 from runs where run_id = ${run} and owner_worker_id = ${worker})`;
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
  for (const event of chunk) {
    params.push(
      event.thread_id,
      event.run_id,
      event.user_id,
      event.event_type,
      event.category,
      event.content,
      event.metadata,
      event.created_at,
    );
  }
  if (fence) params.push(fence.runId, fence.workerId);
  return CompiledQuery.raw(
    insertText(dialect, chunk.length, returning, fence !== undefined),
    params,
  );
}

/** PostgreSQL's per-thread event lock, the one `lockThreadEvents` takes, as a statement. */
function threadEventsLock(threadId: string): CompiledQuery {
  return CompiledQuery.raw("select pg_advisory_xact_lock(hashtext($1))", [threadId]);
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
  const values = [
    event.thread_id,
    event.run_id,
    event.user_id,
    event.event_type,
    event.category,
    event.content,
    event.metadata,
    event.created_at,
  ];
  const params =
    dialect === "sqlite"
      ? [...values, event.thread_id, event.thread_id, event.run_id, event.event_type]
      : values;
  if (fence) params.push(fence.runId, fence.workerId);
  return CompiledQuery.raw(text, params);
}

/** A batch encoded and cut into statements, before it is written. */
interface PreparedBatch {
  encoded: EncodedEvent[];
  /** Rows per thread. */
  rowsOf: Map<string, number>;
  statements: CompiledQuery[];
  /** The statement whose answer holds the thread's new max seq. */
  maxSeqAt: Map<string, number>;
  /** The fence's read, when the batch is fenced. */
  fenceAt: number | null;
}

/** What a written batch needs to hand out stored envelopes. */
interface WrittenBatch {
  encoded: EncodedEvent[];
  /** Each thread's first seq in this batch (its rows are contiguous from there). */
  firstSeqs: Map<string, number>;
}

/** `count` as power-of-two chunk sizes, largest first (at most `maxRows`, a power of two, each). */
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

/**
 * Run events over Kysely. `seq` is `max(seq) + 1` per thread, assigned while holding the thread's
 * in-process lock (so one process's writers queue instead of colliding) and, inside the write
 * transaction, the cross-process lock: PostgreSQL's `pg_advisory_xact_lock(hashtext(thread_id))`,
 * SQLite's database write lock (BEGIN IMMEDIATE). UNIQUE(thread_id, seq) backs both.
 */
export class SqlRunEventStore implements RunEventStore {
  private readonly locks = new KeyedMutex<string>();
  private readonly clock: Clock;

  constructor(
    private readonly database: SqlDatabase,
    private readonly options: SqlStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  private get db(): SqlExecutor {
    return this.database.executor();
  }

  async put(event: NewRunEvent, options: FencedWrite = {}): Promise<RunEvent> {
    const written = await this.writeBatch([event], options.fence);
    const [encoded] = written?.encoded ?? [];
    const seq = written?.firstSeqs.get(event.thread_id);
    if (encoded === undefined || seq === undefined) {
      throw new Error("a one-event batch wrote no event");
    }
    return storedEnvelope(encoded, seq);
  }

  async putBatch(events: readonly NewRunEvent[], options: FencedWrite = {}): Promise<RunEvent[]> {
    const written = await this.writeBatch(events, options.fence);
    if (written === null) return [];
    // A batch of the same threads that waited for the lock (a journal's next one) got it as this
    // one let go and is on its way to the database within this tick: build the envelopes after
    // it has left, not in its way.
    if (
      written.encoded.length >= ENCODE_SLICE &&
      [...written.firstSeqs.keys()].some((threadId) => this.locks.isLocked(threadId))
    ) {
      await yieldToLoop();
    }
    const nextSeq = new Map(written.firstSeqs);
    return written.encoded.map((event) => {
      const seq = nextSeq.get(event.thread_id) ?? 1;
      nextSeq.set(event.thread_id, seq + 1);
      return storedEnvelope(event, seq);
    });
  }

  /**
   * One `executeBatch`: (PostgreSQL: the threads' event locks), then the chunk INSERTs — on
   * SQLite a single message to the worker, whatever the batch size.
   *
   * The threads' in-process locks are asked for at once, in call order, and the batch is encoded
   * while it waits for them: a writer that hands over its next batch while one is still being
   * written (the journal) has them written in that order, and the next one is ready to go the
   * moment the lock passes to it.
   */
  private writeBatch(
    events: readonly NewRunEvent[],
    fence: WriteFence | undefined,
  ): Promise<WrittenBatch | null> {
    if (events.length === 0) return Promise.resolve(null);
    const threadIds = [...new Set(events.map((event) => event.thread_id))].sort();
    const prepared = this.prepareBatch(events, fence);
    // Observed inside the lock; this keeps a rejection from counting as unhandled meanwhile.
    prepared.catch(() => undefined);
    return this.withLocalThreadLocks(threadIds, async () => {
      // Invalid input rejects here, before anything is written: all-or-nothing.
      const { encoded, rowsOf, statements, maxSeqAt, fenceAt } = await prepared;
      let results: QueryResult<unknown>[];
      try {
        results = await this.database.executeBatch(statements);
      } catch (error) {
        throw toStoreError(error, "append run events");
      }
      // A failed fence inserted nothing (every chunk carries it): refuse the whole batch.
      if (fence && fenceAt !== null) checkFenceRead(results[fenceAt], fence, "append run events");
      // The thread's rows took the seqs up to its new max, in batch order.
      const firstSeqs = new Map<string, number>();
      for (const [threadId, index] of maxSeqAt) {
        const rows = (results[index]?.rows ?? []) as Array<{ seq: number | string | null }>;
        if (rows.length === 0) throw new Error("a batch's max-seq read returned no rows");
        const maxSeq = Math.max(...rows.map((row) => toNumber(row.seq)));
        firstSeqs.set(threadId, maxSeq - (rowsOf.get(threadId) ?? 0) + 1);
      }
      return { encoded, firstSeqs };
    });
  }

  /**
   * Encodes a batch and builds its statements: all the work that needs no answer, done while the
   * batch waits for its lock, so little is left between one batch's reply and the next one's
   * start. Rejects on any event the tables cannot hold.
   */
  private async prepareBatch(
    events: readonly NewRunEvent[],
    fence: WriteFence | undefined,
  ): Promise<PreparedBatch> {
    const now = isoNow(this.clock);
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
    const { dialect } = this.database;
    const statements: CompiledQuery[] =
      dialect === "postgres" ? [...byThread.keys()].sort().map(threadEventsLock) : [];
    const fenceAt = fence ? statements.length : null;
    if (fence) statements.push(fenceReadQuery(dialect, fence));
    // Where each thread's new max seq comes back: PostgreSQL, the thread's last (smallest) chunk
    // returns its seqs; SQLite, a max-seq read after the thread's chunks.
    const maxSeqAt = new Map<string, number>();
    const rowsOf = new Map<string, number>();
    for (const [threadId, rows] of byThread) {
      rowsOf.set(threadId, rows.length);
      const sizes =
        dialect === "sqlite" ? chunkSizes(rows.length) : postgresChunkSizes(rows.length);
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

  /**
   * Without a guard, one `executeBatch` (on SQLite one worker message): (PostgreSQL: the thread's
   * event lock), the existing singleton's read, then an insert that happens only when there is
   * none. With a guard, the guard must run between the read and the insert: a transaction of
   * separate statements.
   */
  async putIfAbsent(
    event: NewRunEvent,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    const encoded = encodeEvent(event, isoNow(this.clock));
    const threadId = encoded.thread_id;
    const { fence } = options;
    if (options.guard === undefined) return this.putSingletonInOneBatch(encoded, fence);
    return this.withThreadLocks([threadId], "append a run event", async (trx) => {
      if (fence) {
        const read = await trx.executeQuery(fenceReadQuery(this.database.dialect, fence));
        checkFenceRead(read, fence, `write ${encoded.event_type}`);
      }
      const existing = await trx
        .selectFrom("run_events")
        .selectAll()
        .where("thread_id", "=", threadId)
        .where("run_id", "=", encoded.run_id)
        .where("event_type", "=", encoded.event_type)
        .orderBy("seq")
        .limit(1)
        .executeTakeFirst();
      if (existing !== undefined) return { event: runEventFromDb(existing), created: false };
      // The guard runs inside this transaction (store calls it makes join it, see
      // SqlDatabase.executor), so what it checks cannot change before the insert commits.
      if (options.guard !== undefined && !(await options.guard())) {
        throw new ConflictError(
          `Refused to write ${encoded.event_type} for run ${encoded.run_id}: its guard failed.`,
        );
      }
      const seq = (await this.nextSeqs(trx, [threadId])).get(threadId) ?? 1;
      await trx.insertInto("run_events").values(eventRow(encoded, seq)).execute();
      return { event: storedEnvelope(encoded, seq), created: true };
    });
  }

  private async putSingletonInOneBatch(
    encoded: EncodedEvent,
    fence: WriteFence | undefined,
  ): Promise<PutIfAbsentResult> {
    const { dialect } = this.database;
    const threadId = encoded.thread_id;
    const statements: CompiledQuery[] = dialect === "postgres" ? [threadEventsLock(threadId)] : [];
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
    const results = await this.withLocalThreadLocks([threadId], async () => {
      try {
        return await this.database.executeBatch(statements);
      } catch (error) {
        throw toStoreError(error, "append a run event");
      }
    });
    if (fence && fenceAt !== null) {
      checkFenceRead(results[fenceAt], fence, `write ${encoded.event_type}`);
    }
    const [existing] = (results.at(-2)?.rows ?? []) as Array<Selectable<RunEventsTable>>;
    if (existing !== undefined) return { event: runEventFromDb(existing), created: false };
    const [inserted] = (results.at(-1)?.rows ?? []) as Array<{ seq: number | string }>;
    if (inserted === undefined) {
      throw toStoreError(
        new Error("the insert found neither an existing event nor wrote one"),
        "append a run event",
      );
    }
    return { event: storedEnvelope(encoded, toNumber(inserted.seq)), created: true };
  }

  async listEvents(
    threadId: string,
    runId: string,
    options: ListEventsOptions = {},
  ): Promise<RunEvent[]> {
    const limit = options.limit ?? DEFAULT_EVENT_LIMIT;
    if (limit <= 0 || options.eventTypes?.length === 0) return [];
    return this.read("list run events", async () => {
      const records = await this.db
        .selectFrom("run_events")
        .selectAll()
        .where("thread_id", "=", threadId)
        .where("run_id", "=", runId)
        .$if(options.eventTypes !== undefined, (qb) =>
          qb.where("event_type", "in", options.eventTypes ?? []),
        )
        .$if(options.taskId !== undefined, (qb) =>
          qb.where(this.metadataStringEquals("task_id", options.taskId ?? "")),
        )
        .$if(options.afterSeq !== undefined, (qb) => qb.where("seq", ">", options.afterSeq ?? 0))
        .$if(options.userId != null, (qb) => qb.where("user_id", "=", options.userId ?? null))
        .orderBy("seq")
        .limit(limit)
        .execute();
      return records.map(runEventFromDb);
    });
  }

  listMessages(threadId: string, options: ListMessagesOptions = {}): Promise<RunEvent[]> {
    return this.windowMessages(threadId, null, options);
  }

  listMessagesByRun(
    threadId: string,
    runId: string,
    options: ListMessagesOptions = {},
  ): Promise<RunEvent[]> {
    return this.windowMessages(threadId, runId, options);
  }

  countMessages(threadId: string): Promise<number> {
    return this.read("count messages", async () => {
      const result = await this.db
        .selectFrom("run_events")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("thread_id", "=", threadId)
        .where("category", "=", "message")
        .executeTakeFirst();
      return toNumber(result?.count);
    });
  }

  deleteByThread(threadId: string, scope: { userId?: string | null } = {}): Promise<number> {
    return this.withThreadLocks([threadId], "delete a thread's events", async (trx) => {
      const result = await trx
        .deleteFrom("run_events")
        .where("thread_id", "=", threadId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  deleteByRun(
    threadId: string,
    runId: string,
    scope: { userId?: string | null } = {},
  ): Promise<number> {
    return this.withThreadLocks([threadId], "delete a run's events", async (trx) => {
      const result = await trx
        .deleteFrom("run_events")
        .where("thread_id", "=", threadId)
        .where("run_id", "=", runId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  evidenceReceipt(threadId: string, runId: string): Promise<EvidenceReceipt> {
    return this.read("read a run's evidence receipt", async () => {
      const { rows } = await this.db.executeQuery<{
        upper: number | string | null;
        count: number | string;
      }>(
        sqlStatement(
          this.database.dialect,
          "select max(seq) as upper, count(*) as count from run_events where thread_id = ? and run_id = ?",
          [threadId, runId],
        ),
      );
      const [result] = rows;
      return { upperEventSeq: toNumber(result?.upper), eventCount: toNumber(result?.count) };
    });
  }

  async close(): Promise<void> {
    if (this.options.ownsDatabase === true) await this.database.close();
  }

  /**
   * Holds the threads' in-process locks (sorted, so multi-thread batches never deadlock) and runs
   * `fn` in one transaction that first takes the threads' cross-process locks, in the same order.
   */
  private withThreadLocks<T>(
    threadIds: readonly string[],
    action: string,
    fn: (trx: SqlExecutor) => Promise<T>,
  ): Promise<T> {
    const sorted = [...new Set(threadIds)].sort();
    const inTransaction = async (): Promise<T> => {
      try {
        return await this.database.transaction(async (trx) => {
          for (const threadId of sorted)
            await lockThreadEvents(trx, this.database.dialect, threadId);
          return fn(trx);
        });
      } catch (error) {
        throw toStoreError(error, action);
      }
    };
    return this.withLocalThreadLocks(sorted, inTransaction);
  }

  /** This process's per-thread locks, sorted so multi-thread writers never deadlock. */
  private withLocalThreadLocks<T>(threadIds: readonly string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(threadIds)].sort();
    const acquire = (index: number): Promise<T> => {
      const threadId = sorted[index];
      if (threadId === undefined) return fn();
      return this.locks.runExclusive(threadId, () => acquire(index + 1));
    };
    return acquire(0);
  }

  /** The next free seq of each thread (1 for a thread without events). */
  private async nextSeqs(
    trx: SqlExecutor,
    threadIds: readonly string[],
  ): Promise<Map<string, number>> {
    const records = await trx
      .selectFrom("run_events")
      .select((eb) => ["thread_id", eb.fn.max<number | string>("seq").as("max_seq")])
      .where("thread_id", "in", threadIds)
      .groupBy("thread_id")
      .execute();
    const next = new Map<string, number>(threadIds.map((threadId) => [threadId, 1]));
    for (const record of records) next.set(record.thread_id, toNumber(record.max_seq) + 1);
    return next;
  }

  /** `metadata[key]` is the JSON string `value` (a number 5 does not match "5"). */
  private metadataStringEquals(key: string, value: string): Expression<SqlBool> {
    if (this.database.dialect === "postgres") {
      return sql<SqlBool>`event_metadata -> ${key} = to_jsonb(${value}::text)`;
    }
    const path = `$.${key}`;
    return sql<SqlBool>`(json_type(event_metadata, ${path}) = 'text' and json_extract(event_metadata, ${path}) = ${value})`;
  }

  /**
   * `message` rows, ascending. `afterSeq` alone pages forward from a cursor (the first `limit`
   * above it); otherwise the window ends at the newest match (the last `limit`).
   */
  private windowMessages(
    threadId: string,
    runId: string | null,
    options: ListMessagesOptions,
  ): Promise<RunEvent[]> {
    const limit = options.limit ?? DEFAULT_MESSAGE_LIMIT;
    if (limit <= 0) return Promise.resolve([]);
    const forward = options.afterSeq !== undefined && options.beforeSeq === undefined;
    return this.read("list messages", async () => {
      const records = await this.db
        .selectFrom("run_events")
        .selectAll()
        .where("thread_id", "=", threadId)
        .where("category", "=", "message")
        .$if(runId !== null, (qb) => qb.where("run_id", "=", runId ?? ""))
        .$if(options.beforeSeq !== undefined, (qb) => qb.where("seq", "<", options.beforeSeq ?? 0))
        .$if(options.afterSeq !== undefined, (qb) => qb.where("seq", ">", options.afterSeq ?? 0))
        .$if(options.userId != null, (qb) => qb.where("user_id", "=", options.userId ?? null))
        .orderBy("seq", forward ? "asc" : "desc")
        .limit(limit)
        .execute();
      const events = records.map(runEventFromDb);
      return forward ? events : events.reverse();
    });
  }

  private async read<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toStoreError(error, action);
    }
  }
}
