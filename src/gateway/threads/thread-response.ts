import type { Json } from "../../core/json/serialize.js";
import type { ThreadRow, ThreadStatus } from "../../ports/thread-store.js";
import type { ApiInterrupt, ApiThreadState } from "../state/thread-state.js";

/** LangGraph's `Thread` object. */
export interface ApiThread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  state_updated_at: string;
  metadata: Record<string, unknown>;
  status: ThreadStatus;
  values: Record<string, Json>;
  interrupts: Record<string, ApiInterrupt[]>;
  config: Record<string, unknown>;
  error: string | null;
}

/**
 * A thread row plus (when read) its head state. The stored status says what the last run did; a
 * head that waits on a human (`interrupted`, see `ThreadStateService.isInterrupted`) makes an idle
 * thread `interrupted`, and then `interrupts` maps each pending task to its interrupts, as in
 * LangGraph (an empty list for a task stopped by `interrupt_before`).
 */
export function toApiThread(
  row: ThreadRow,
  state: ApiThreadState | null,
  interrupted = state !== null && state.interrupts.length > 0,
): ApiThread {
  const interrupts: Record<string, ApiInterrupt[]> = {};
  if (interrupted) {
    for (const task of state?.tasks ?? []) interrupts[task.id] = task.interrupts;
  }
  const status: ThreadStatus = row.status === "idle" && interrupted ? "interrupted" : row.status;
  return {
    thread_id: row.thread_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    state_updated_at: state?.created_at ?? row.updated_at,
    metadata: row.metadata,
    status,
    values: state?.values ?? (row.display_name ? { title: row.display_name } : {}),
    interrupts,
    config: {},
    error: null,
  };
}

/** LangGraph `select`: keep only the requested top-level fields. */
export function selectFields<T extends object>(
  value: T,
  fields: readonly string[] | null | undefined,
): Partial<T> {
  if (!fields || fields.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field in value) out[field] = (value as Record<string, unknown>)[field];
  }
  return out as Partial<T>;
}
