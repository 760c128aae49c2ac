import { type Expression, type SqlBool, sql } from "kysely";
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
} from "../../runtime/run-event-store.js";
import { lockThreadEvents } from "./advisory-locks.js";
import { toNumber } from "./codec.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import { prepareEvent, runEventFromDb } from "./event-codec.js";
import { toStoreError } from "./sql-errors.js";
import type { SqlStoreOptions } from "./sql-run-store.js";

const DEFAULT_EVENT_LIMIT = 500;
const DEFAULT_MESSAGE_LIMIT = 50;
/** Rows per INSERT: 9 bound values each stays far below both engines' parameter limits. */
const INSERT_CHUNK_ROWS = 500;

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

  async put(event: NewRunEvent): Promise<RunEvent> {
    const [stored] = await this.putBatch([event]);
    if (stored === undefined) throw new Error("putBatch returned no event for one input");
    return stored;
  }

  async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const now = isoNow(this.clock);
    // Everything that can reject the input happens before any lock or write: all-or-nothing.
    const prepared = events.map((event) => prepareEvent(event, now));
    if (prepared.length === 0) return [];
    const threadIds = [...new Set(prepared.map((event) => event.row.thread_id))].sort();
    return this.withThreadLocks(threadIds, "append run events", async (trx) => {
      const nextSeq = await this.nextSeqs(trx, threadIds);
      const rows = prepared.map((event) => {
        const seq = nextSeq.get(event.row.thread_id) ?? 1;
        nextSeq.set(event.row.thread_id, seq + 1);
        return { event, seq };
      });
      for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
        const chunk = rows.slice(start, start + INSERT_CHUNK_ROWS);
        await trx
          .insertInto("run_events")
          .values(chunk.map(({ event, seq }) => ({ ...event.row, seq })))
          .execute();
      }
      return rows.map(({ event, seq }) => ({ ...event.envelope, seq }));
    });
  }

  async putIfAbsent(
    event: NewRunEvent,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    const prepared = prepareEvent(event, isoNow(this.clock));
    const threadId = prepared.row.thread_id;
    return this.withThreadLocks([threadId], "append a run event", async (trx) => {
      const existing = await trx
        .selectFrom("run_events")
        .selectAll()
        .where("thread_id", "=", threadId)
        .where("run_id", "=", prepared.row.run_id)
        .where("event_type", "=", prepared.row.event_type)
        .orderBy("seq")
        .limit(1)
        .executeTakeFirst();
      if (existing !== undefined) return { event: runEventFromDb(existing), created: false };
      // The guard runs inside this transaction (store calls it makes join it, see
      // SqlDatabase.executor), so what it checks cannot change before the insert commits.
      if (options.guard !== undefined && !(await options.guard())) {
        throw new ConflictError(
          `Refused to write ${prepared.row.event_type} for run ${prepared.row.run_id}: its guard failed.`,
        );
      }
      const seq = (await this.nextSeqs(trx, [threadId])).get(threadId) ?? 1;
      await trx
        .insertInto("run_events")
        .values({ ...prepared.row, seq })
        .execute();
      return { event: { ...prepared.envelope, seq }, created: true };
    });
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
      const result = await this.db
        .selectFrom("run_events")
        .select((eb) => [
          eb.fn.max<number | string | null>("seq").as("upper"),
          eb.fn.countAll<number | string>().as("count"),
        ])
        .where("thread_id", "=", threadId)
        .where("run_id", "=", runId)
        .executeTakeFirst();
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
    const acquire = (index: number): Promise<T> => {
      const threadId = sorted[index];
      if (threadId === undefined) return inTransaction();
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
