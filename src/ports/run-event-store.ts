/**
 * Durable run events. `seq` is per thread, strictly increasing, assigned by the store. Only
 * `message` rows appear in the message projections.
 */

import type { FencedWrite } from "./write-fence.js";

export const EVENT_CATEGORIES = [
  "message",
  "trace",
  "outputs",
  "error",
  "middleware",
  "context",
  "subagent",
  "workspace",
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export const MAX_EVENT_TYPE_LENGTH = 32;
export const MAX_CATEGORY_LENGTH = 16;

export interface RunEvent {
  thread_id: string;
  run_id: string;
  seq: number;
  event_type: string;
  category: string;
  /** A string or any JSON value. */
  content: unknown;
  metadata: Record<string, unknown>;
  created_at: string;
  user_id: string | null;
}

export interface NewRunEvent {
  thread_id: string;
  run_id: string;
  event_type: string;
  category: string;
  content?: unknown;
  metadata?: Record<string, unknown>;
  created_at?: string;
  user_id?: string | null;
}

export interface PutIfAbsentResult {
  event: RunEvent;
  created: boolean;
}

export interface PutIfAbsentOptions extends FencedWrite {
  /**
   * Checked under the same per-thread write lock as the insert; returning false aborts the write
   * with a `ConflictError` (deletion fencing: recovery must not resurrect a deleted thread).
   */
  guard?: () => Promise<boolean>;
}

export interface ListEventsOptions {
  eventTypes?: readonly string[];
  /** Matches `metadata.task_id`. */
  taskId?: string;
  limit?: number;
  afterSeq?: number;
  /** A string filters by owner; null/omitted = unscoped. */
  userId?: string | null;
}

export interface ListMessagesOptions {
  limit?: number;
  beforeSeq?: number;
  afterSeq?: number;
  userId?: string | null;
}

export interface EvidenceReceipt {
  /** Highest seq among the run's events (0 when none). */
  upperEventSeq: number;
  /** Number of the run's events, unscoped. */
  eventCount: number;
}

/**
 * Every write takes an optional `fence` (see `WriteFence`): checked atomically with the insert,
 * under the thread's write lock / in the write's transaction; a failed check writes nothing and
 * rejects with `OwnershipLostError`. Memory and JSONL stores check it against the run store they
 * were given (`owners`); without one they have no owners to compare and accept the write.
 */
export interface RunEventStore {
  put(event: NewRunEvent, options?: FencedWrite): Promise<RunEvent>;
  /**
   * All-or-nothing; seqs contiguous within the batch per thread. A thread's batches are written
   * in the order the calls were made, even when a call comes before the previous one settled.
   */
  putBatch(events: readonly NewRunEvent[], options?: FencedWrite): Promise<RunEvent[]>;
  /**
   * Run-scoped singleton by `(thread_id, run_id, event_type)`: an existing event of that type is
   * returned with `created: false` whatever its other fields; otherwise the event is inserted.
   * The check and the insert are serialized with every writer of the thread.
   */
  putIfAbsent(event: NewRunEvent, options?: PutIfAbsentOptions): Promise<PutIfAbsentResult>;
  /** Ascending by seq; default limit 500. */
  listEvents(threadId: string, runId: string, options?: ListEventsOptions): Promise<RunEvent[]>;
  /**
   * `message` rows, ascending. `beforeSeq` → the last `limit` below it; `afterSeq` → the first
   * `limit` above it; neither → the latest `limit` (default 50).
   */
  listMessages(threadId: string, options?: ListMessagesOptions): Promise<RunEvent[]>;
  listMessagesByRun(
    threadId: string,
    runId: string,
    options?: ListMessagesOptions,
  ): Promise<RunEvent[]>;
  countMessages(threadId: string): Promise<number>;
  deleteByThread(threadId: string, scope?: { userId?: string | null }): Promise<number>;
  deleteByRun(threadId: string, runId: string, scope?: { userId?: string | null }): Promise<number>;
  evidenceReceipt(threadId: string, runId: string): Promise<EvidenceReceipt>;
  close(): Promise<void>;
}
