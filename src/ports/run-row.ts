import type { AdmissionOptions, NewThreadOperation } from "./run-store.js";
import { ACTIVE_RUN_STATUSES, emptyTokenTotals, type RunRow, type RunStatus } from "./run-types.js";

/**
 * A fresh `pending` row for an admission request: the one place that says what a field the
 * request leaves out starts as. Every run store inserts it. `on_disconnect` defaults to `continue`, the API's default (a run outlives its
 * client unless asked otherwise).
 */
export function newRunRow(op: NewThreadOperation, overrides: Partial<RunRow> = {}): RunRow {
  const kind = op.operation_kind ?? "run";
  return {
    run_id: op.run_id,
    thread_id: op.thread_id,
    assistant_id: op.assistant_id ?? null,
    user_id: op.user_id ?? null,
    status: "pending",
    operation_kind: kind,
    idempotency_key: op.idempotency_key ?? null,
    model_name: op.model_name ?? null,
    multitask_strategy: op.multitask_strategy ?? "reject",
    on_disconnect: op.on_disconnect ?? "continue",
    metadata: op.metadata ?? {},
    kwargs: op.kwargs ?? {},
    error: null,
    stop_reason: null,
    follow_up_to_run_id: op.follow_up_to_run_id ?? null,
    queued: false,
    owner_worker_id: op.owner_worker_id ?? null,
    lease_expires_at: op.lease_expires_at ?? null,
    cancel_action: null,
    cancel_requested_at: null,
    evidence_seal_state: kind === "run" ? "pending" : null,
    evidence_seal_error: null,
    evidence_upper_seq: null,
    evidence_event_count: null,
    created_at: op.created_at,
    updated_at: op.created_at,
    message_count: 0,
    first_human_message: null,
    last_ai_message: null,
    ...emptyTokenTotals(),
    ...overrides,
  };
}

/**
 * The row `RunStore.createThreadOperation` inserts: a request without its own strategy records
 * the one it was admitted under.
 */
export function admittedRunRow(
  op: NewThreadOperation,
  options: AdmissionOptions,
  queued: boolean,
): RunRow {
  return newRunRow(op, { multitask_strategy: op.multitask_strategy ?? options.strategy, queued });
}

/** Sources `updateStatus` may move a row from: terminal rows other than `interrupted` are frozen. */
export const STATUS_UPDATE_SOURCES: readonly RunStatus[] = ["pending", "running", "interrupted"];

/**
 * Statuses `updateRunCompletion` may record `status` over: an active row, the same status again,
 * and an `interrupted` row failing (`error`); never a different terminal status.
 */
export function completionSources(status: RunStatus): RunStatus[] {
  const sources: RunStatus[] = [...ACTIVE_RUN_STATUSES, status];
  if (status === "error") sources.push("interrupted");
  return sources;
}

/** The longest first-human / last-AI message a row keeps, in code points. */
export const MAX_CONVENIENCE_MESSAGE_CHARS = 2000;

/** Cuts by code points (not UTF-16 units) so a surrogate pair is never split. */
export function truncateConvenienceMessage(text: string | null): string | null {
  if (text === null || text.length <= MAX_CONVENIENCE_MESSAGE_CHARS) return text;
  return Array.from(text).slice(0, MAX_CONVENIENCE_MESSAGE_CHARS).join("");
}
