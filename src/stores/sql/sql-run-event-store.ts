import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Selectable } from "kysely";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
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
import type { SqlExecutor } from "./database.js";
import {
  type EncodedEvent,
  encodeEvent,
  eventRow,
  runEventFromDb,
  storedEnvelope,
} from "./event-codec.js";
import type { RunEventsTable } from "./schema.js";
import { toStoreError } from "./sql-errors.js";
import * as reads from "./sql-event-reads.js";
import { ENCODE_SLICE, prepareBatch, singletonBatch } from "./sql-event-statements.js";
import { checkFenceRead, fenceReadQuery } from "./sql-fence.js";
import { SqlStore } from "./sql-store.js";

/** What a written batch needs to hand out stored envelopes. */
interface WrittenBatch {
  encoded: EncodedEvent[];
  /** Each thread's first seq in this batch (its rows are contiguous from there). */
  firstSeqs: Map<string, number>;
}

/**
 * Run events over Kysely. `seq` is `max(seq) + 1` per thread, assigned while holding the thread's
 * in-process lock (so one process's writers queue instead of colliding) and, inside the write
 * transaction, the cross-process lock: PostgreSQL's `pg_advisory_xact_lock(hashtext(thread_id))`,
 * SQLite's database write lock (BEGIN IMMEDIATE). UNIQUE(thread_id, seq) backs both.
 */
export class SqlRunEventStore extends SqlStore implements RunEventStore {
  private readonly locks = new KeyedMutex<string>();

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
    const prepared = prepareBatch(this.database.dialect, events, fence, this.now());
    // Observed inside the lock; this keeps a rejection from counting as unhandled meanwhile.
    prepared.catch(() => undefined);
    return this.locks.runExclusiveAll(threadIds, async () => {
      // Invalid input rejects here, before anything is written: all-or-nothing.
      const { encoded, rowsOf, statements, maxSeqAt, fenceAt } = await prepared;
      const results = await this.wrap("append run events", () =>
        this.database.executeBatch(statements),
      );
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
   * Without a guard, one `executeBatch` (on SQLite one worker message): (PostgreSQL: the thread's
   * event lock), the existing singleton's read, then an insert that happens only when there is
   * none. With a guard, the guard must run between the read and the insert: a transaction of
   * separate statements.
   */
  async putIfAbsent(
    event: NewRunEvent,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    const encoded = encodeEvent(event, this.now());
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
    const { statements, fenceAt } = singletonBatch(this.database.dialect, encoded, fence);
    const results = await this.locks.runExclusiveAll([encoded.thread_id], () =>
      this.wrap("append a run event", () => this.database.executeBatch(statements)),
    );
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

  listEvents(
    threadId: string,
    runId: string,
    options: ListEventsOptions = {},
  ): Promise<RunEvent[]> {
    return this.wrap("list run events", () =>
      reads.listEvents(this.database, threadId, runId, options),
    );
  }

  listMessages(threadId: string, options: ListMessagesOptions = {}): Promise<RunEvent[]> {
    return this.wrap("list messages", () =>
      reads.windowMessages(this.database, threadId, null, options),
    );
  }

  listMessagesByRun(
    threadId: string,
    runId: string,
    options: ListMessagesOptions = {},
  ): Promise<RunEvent[]> {
    return this.wrap("list messages", () =>
      reads.windowMessages(this.database, threadId, runId, options),
    );
  }

  countMessages(threadId: string): Promise<number> {
    return this.wrap("count messages", () => reads.countMessages(this.database, threadId));
  }

  deleteByThread(threadId: string, scope: { userId?: string | null } = {}): Promise<number> {
    return this.deleteEvents(threadId, null, scope, "delete a thread's events");
  }

  deleteByRun(
    threadId: string,
    runId: string,
    scope: { userId?: string | null } = {},
  ): Promise<number> {
    return this.deleteEvents(threadId, runId, scope, "delete a run's events");
  }

  /** Under the thread's locks, like every write of its events. */
  private deleteEvents(
    threadId: string,
    runId: string | null,
    scope: { userId?: string | null },
    action: string,
  ): Promise<number> {
    return this.withThreadLocks([threadId], action, async (trx) => {
      const result = await trx
        .deleteFrom("run_events")
        .where("thread_id", "=", threadId)
        .$if(runId !== null, (qb) => qb.where("run_id", "=", runId ?? ""))
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  evidenceReceipt(threadId: string, runId: string): Promise<EvidenceReceipt> {
    return this.wrap("read a run's evidence receipt", () =>
      reads.evidenceReceipt(this.database, threadId, runId),
    );
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
    const inTransaction = (): Promise<T> =>
      this.wrap(action, () =>
        this.database.transaction(async (trx) => {
          for (const threadId of sorted)
            await lockThreadEvents(trx, this.database.dialect, threadId);
          return fn(trx);
        }),
      );
    return this.locks.runExclusiveAll(sorted, inTransaction);
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
}
