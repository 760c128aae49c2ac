import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ConflictError, ValidationError } from "../../core/errors.js";
import {
  type EvidenceReceipt,
  type ListEventsOptions,
  type ListMessagesOptions,
  MAX_CATEGORY_LENGTH,
  MAX_EVENT_TYPE_LENGTH,
  type NewRunEvent,
  type PutIfAbsentOptions,
  type PutIfAbsentResult,
  type RunEvent,
  type RunEventStore,
} from "../../ports/run-event-store.js";
import { assertFence, type FencedWrite, type RunOwnership } from "../../ports/write-fence.js";
import type { MemoryStoreOptions } from "./run-store.js";

export interface MemoryRunEventStoreOptions extends MemoryStoreOptions {
  /** The run rows that fenced writes are checked against (the paired run store). */
  owners?: RunOwnership;
}

const DEFAULT_EVENT_LIMIT = 500;
const DEFAULT_MESSAGE_LIMIT = 50;

/** Rejects values the SQL store could not hold, before anything is written. */
export function validateNewEvent(event: NewRunEvent): void {
  checkLength("event_type", event.event_type, MAX_EVENT_TYPE_LENGTH);
  checkLength("category", event.category, MAX_CATEGORY_LENGTH);
  if (typeof event.thread_id !== "string" || event.thread_id === "") {
    throw new ValidationError("Event thread_id must be a non-empty string.");
  }
  if (typeof event.run_id !== "string" || event.run_id === "") {
    throw new ValidationError("Event run_id must be a non-empty string.");
  }
}

function checkLength(field: string, value: unknown, max: number): void {
  if (typeof value !== "string" || value.length < 1 || value.length > max) {
    throw new ValidationError(
      `Event ${field} must be 1-${max} characters; got ${JSON.stringify(value)}.`,
    );
  }
}

/** Content or metadata no store can keep (a function, a BigInt for JSON) is bad input. */
export function unstorable(event: NewRunEvent, cause: unknown): ValidationError {
  return new ValidationError(
    `Event ${event.event_type} has content or metadata that cannot be stored; use JSON values.`,
    { cause },
  );
}

/** The stored envelope of a new event, stamped with its seq. */
export function toRunEvent(event: NewRunEvent, seq: number, now: string): RunEvent {
  return {
    thread_id: event.thread_id,
    run_id: event.run_id,
    seq,
    event_type: event.event_type,
    category: event.category,
    content: event.content === undefined ? "" : event.content,
    metadata: event.metadata ?? {},
    created_at: event.created_at ?? now,
    user_id: event.user_id ?? null,
  };
}

/** `listEvents` filtering over one run's events, already ascending by seq. */
export function filterRunEvents(
  events: readonly RunEvent[],
  options: ListEventsOptions,
): RunEvent[] {
  const types = options.eventTypes ? new Set(options.eventTypes) : null;
  const limit = options.limit ?? DEFAULT_EVENT_LIMIT;
  const matching = events.filter(
    (event) =>
      (types === null || types.has(event.event_type)) &&
      (options.taskId === undefined || event.metadata.task_id === options.taskId) &&
      (options.afterSeq === undefined || event.seq > options.afterSeq) &&
      ownedBy(event, options.userId),
  );
  return matching.slice(0, limit);
}

/** Message windowing shared by the thread and run projections; input ascending by seq. */
export function windowMessages(
  events: readonly RunEvent[],
  options: ListMessagesOptions,
): RunEvent[] {
  const limit = options.limit ?? DEFAULT_MESSAGE_LIMIT;
  const messages = events.filter(
    (event) =>
      event.category === "message" &&
      ownedBy(event, options.userId) &&
      (options.beforeSeq === undefined || event.seq < options.beforeSeq) &&
      (options.afterSeq === undefined || event.seq > options.afterSeq),
  );
  if (limit <= 0) return [];
  // `afterSeq` pages forward from a cursor; otherwise the window ends at the newest match.
  if (options.afterSeq !== undefined && options.beforeSeq === undefined)
    return messages.slice(0, limit);
  return messages.slice(-limit);
}

export function receiptOf(events: readonly RunEvent[]): EvidenceReceipt {
  let upperEventSeq = 0;
  for (const event of events) upperEventSeq = Math.max(upperEventSeq, event.seq);
  return { upperEventSeq, eventCount: events.length };
}

export function ownedBy(event: RunEvent, userId: string | null | undefined): boolean {
  return userId == null || event.user_id === userId;
}

interface ThreadLog {
  events: RunEvent[];
  lastSeq: number;
}

/**
 * Events in per-thread arrays. Every write of a thread runs under that thread's lock, so
 * `putIfAbsent`'s check, guard and insert cannot interleave with another writer or a deletion.
 */
export class MemoryRunEventStore implements RunEventStore {
  private readonly threads = new Map<string, ThreadLog>();
  private readonly locks = new KeyedMutex<string>();
  private readonly clock: Clock;
  private readonly owners: RunOwnership | undefined;

  constructor(options: MemoryRunEventStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.owners = options.owners;
  }

  async put(event: NewRunEvent, options: FencedWrite = {}): Promise<RunEvent> {
    validateNewEvent(event);
    const prepared = this.prepare(event);
    return this.locks.runExclusive(event.thread_id, () => {
      assertFence(this.owners, options.fence, "append a run event");
      return structuredClone(this.append(prepared));
    });
  }

  async putBatch(events: readonly NewRunEvent[], options: FencedWrite = {}): Promise<RunEvent[]> {
    for (const event of events) validateNewEvent(event);
    if (events.length === 0) return [];
    // Everything that can throw (cloning) happens before the first append: all-or-nothing.
    const prepared = events.map((event) => this.prepare(event));
    return this.locks.runExclusiveAll(
      events.map((event) => event.thread_id),
      () => {
        // Checked and appended in one synchronous step: a takeover cannot come in between.
        assertFence(this.owners, options.fence, "append run events");
        return prepared.map((event) => structuredClone(this.append(event)));
      },
    );
  }

  async putIfAbsent(
    event: NewRunEvent,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    validateNewEvent(event);
    const prepared = this.prepare(event);
    return this.locks.runExclusive(event.thread_id, async () => {
      assertFence(this.owners, options.fence, `write ${event.event_type}`);
      const existing = this.findSingleton(event);
      if (existing) return { event: structuredClone(existing), created: false };
      if (options.guard && !(await options.guard())) {
        throw new ConflictError(
          `Refused to write ${event.event_type} for run ${event.run_id}: its guard failed.`,
        );
      }
      // The guard awaited, but under the lock: no writer of this thread can have run meanwhile.
      // The owner may have changed during that await, though: check it again with the append.
      assertFence(this.owners, options.fence, `write ${event.event_type}`);
      return { event: structuredClone(this.append(prepared)), created: true };
    });
  }

  async listEvents(
    threadId: string,
    runId: string,
    options: ListEventsOptions = {},
  ): Promise<RunEvent[]> {
    const events = this.eventsOf(threadId).filter((event) => event.run_id === runId);
    return structuredClone(filterRunEvents(events, options));
  }

  async listMessages(threadId: string, options: ListMessagesOptions = {}): Promise<RunEvent[]> {
    return structuredClone(windowMessages(this.eventsOf(threadId), options));
  }

  async listMessagesByRun(
    threadId: string,
    runId: string,
    options: ListMessagesOptions = {},
  ): Promise<RunEvent[]> {
    const events = this.eventsOf(threadId).filter((event) => event.run_id === runId);
    return structuredClone(windowMessages(events, options));
  }

  async countMessages(threadId: string): Promise<number> {
    return this.eventsOf(threadId).filter((event) => event.category === "message").length;
  }

  async deleteByThread(threadId: string, scope: { userId?: string | null } = {}): Promise<number> {
    return this.locks.runExclusive(threadId, () =>
      this.removeWhere(threadId, (e) => ownedBy(e, scope.userId)),
    );
  }

  async deleteByRun(
    threadId: string,
    runId: string,
    scope: { userId?: string | null } = {},
  ): Promise<number> {
    return this.locks.runExclusive(threadId, () =>
      this.removeWhere(threadId, (e) => e.run_id === runId && ownedBy(e, scope.userId)),
    );
  }

  async evidenceReceipt(threadId: string, runId: string): Promise<EvidenceReceipt> {
    return receiptOf(this.eventsOf(threadId).filter((event) => event.run_id === runId));
  }

  async close(): Promise<void> {}

  /** A private copy of the event, stamped later with its seq; the caller keeps its object. */
  private prepare(event: NewRunEvent): RunEvent {
    try {
      return structuredClone(toRunEvent(event, 0, isoNow(this.clock)));
    } catch (error) {
      throw unstorable(event, error);
    }
  }

  /** Synchronous from seq assignment to insert: callers hold the thread's lock. */
  private append(stored: RunEvent): RunEvent {
    let log = this.threads.get(stored.thread_id);
    if (!log) {
      log = { events: [], lastSeq: 0 };
      this.threads.set(stored.thread_id, log);
    }
    log.lastSeq += 1;
    stored.seq = log.lastSeq;
    log.events.push(stored);
    return stored;
  }

  private findSingleton(event: NewRunEvent): RunEvent | undefined {
    return this.eventsOf(event.thread_id).find(
      (e) => e.run_id === event.run_id && e.event_type === event.event_type,
    );
  }

  private removeWhere(threadId: string, doomed: (event: RunEvent) => boolean): number {
    const log = this.threads.get(threadId);
    if (!log) return 0;
    const kept = log.events.filter((event) => !doomed(event));
    const removed = log.events.length - kept.length;
    log.events = kept;
    // An emptied thread starts over at seq 1, like the SQL store's max(seq) + 1.
    if (kept.length === 0) this.threads.delete(threadId);
    return removed;
  }

  private eventsOf(threadId: string): RunEvent[] {
    return this.threads.get(threadId)?.events ?? [];
  }
}
