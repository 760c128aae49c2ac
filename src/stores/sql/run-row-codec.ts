import type { Insertable, Selectable } from "kysely";
import { truncateConvenienceMessage } from "../../ports/run-row.js";
import type {
  CancelAction,
  DisconnectMode,
  EvidenceSealState,
  ModelTokenUsage,
  MultitaskStrategy,
  OperationKind,
  RunCompletionData,
  RunRow,
  RunStatus,
} from "../../ports/run-types.js";
import { decodeRunInvocation } from "../../ports/run-types.js";
import {
  fromDbObject,
  fromDbTimestamp,
  fromDbTimestampOrNull,
  toBoolean,
  toDbJson,
  toDbTimestamp,
  toDbTimestampOrNull,
  toNumber,
  toNumberOrNull,
  truncateChars,
} from "./codec.js";
import type { RunsTable } from "./schema.js";

export const MAX_MODEL_NAME_CHARS = 128;

export type RunsRecord = Selectable<RunsTable>;
export type RunsInsert = Insertable<RunsTable>;

/**
 * Columns hold values this module wrote, so the string columns are trusted to be members of their
 * unions; the casts only restore the types SQL erased.
 */
export function runRowFromDb(record: RunsRecord): RunRow {
  return {
    run_id: record.run_id,
    thread_id: record.thread_id,
    assistant_id: record.assistant_id,
    user_id: record.user_id,
    status: record.status as RunStatus,
    operation_kind: record.operation_kind as OperationKind,
    idempotency_key: record.idempotency_key,
    model_name: record.model_name,
    multitask_strategy: record.multitask_strategy as MultitaskStrategy,
    on_disconnect: record.on_disconnect as DisconnectMode,
    metadata: fromDbObject(record.metadata_json),
    kwargs: decodeRunInvocation(fromDbObject(record.kwargs_json)),
    error: record.error,
    stop_reason: record.stop_reason,
    message_count: toNumber(record.message_count),
    first_human_message: record.first_human_message,
    last_ai_message: record.last_ai_message,
    total_input_tokens: toNumber(record.total_input_tokens),
    total_output_tokens: toNumber(record.total_output_tokens),
    total_tokens: toNumber(record.total_tokens),
    llm_call_count: toNumber(record.llm_call_count),
    lead_agent_tokens: toNumber(record.lead_agent_tokens),
    subagent_tokens: toNumber(record.subagent_tokens),
    middleware_tokens: toNumber(record.middleware_tokens),
    token_usage_by_model: fromDbObject(record.token_usage_by_model) as Record<
      string,
      ModelTokenUsage
    >,
    follow_up_to_run_id: record.follow_up_to_run_id,
    queued: toBoolean(record.queued),
    owner_worker_id: record.owner_worker_id,
    lease_expires_at: fromDbTimestampOrNull(record.lease_expires_at),
    cancel_action: record.cancel_action as CancelAction | null,
    cancel_requested_at: fromDbTimestampOrNull(record.cancel_requested_at),
    evidence_seal_state: record.evidence_seal_state as EvidenceSealState | null,
    evidence_seal_error: record.evidence_seal_error,
    evidence_upper_seq: toNumberOrNull(record.evidence_upper_seq),
    evidence_event_count: toNumberOrNull(record.evidence_event_count),
    created_at: fromDbTimestamp(record.created_at),
    updated_at: fromDbTimestamp(record.updated_at),
  };
}

export function truncateModelName(name: string | null): string | null {
  return truncateChars(name === null ? null : name.trim(), MAX_MODEL_NAME_CHARS);
}

export function runRowToDb(row: RunRow): RunsInsert {
  return {
    run_id: row.run_id,
    thread_id: row.thread_id,
    assistant_id: row.assistant_id,
    user_id: row.user_id,
    status: row.status,
    operation_kind: row.operation_kind,
    idempotency_key: row.idempotency_key,
    model_name: truncateModelName(row.model_name),
    multitask_strategy: row.multitask_strategy,
    on_disconnect: row.on_disconnect,
    metadata_json: toDbJson(row.metadata),
    kwargs_json: toDbJson(row.kwargs),
    error: row.error,
    stop_reason: row.stop_reason,
    follow_up_to_run_id: row.follow_up_to_run_id,
    queued: row.queued,
    owner_worker_id: row.owner_worker_id,
    lease_expires_at: toDbTimestampOrNull(row.lease_expires_at, "lease_expires_at"),
    cancel_action: row.cancel_action,
    cancel_requested_at: toDbTimestampOrNull(row.cancel_requested_at, "cancel_requested_at"),
    evidence_seal_state: row.evidence_seal_state,
    evidence_seal_error: row.evidence_seal_error,
    evidence_upper_seq: row.evidence_upper_seq,
    evidence_event_count: row.evidence_event_count,
    created_at: toDbTimestamp(row.created_at, "created_at"),
    updated_at: toDbTimestamp(row.updated_at, "updated_at"),
    message_count: row.message_count,
    first_human_message: truncateConvenienceMessage(row.first_human_message),
    last_ai_message: truncateConvenienceMessage(row.last_ai_message),
    total_input_tokens: row.total_input_tokens,
    total_output_tokens: row.total_output_tokens,
    total_tokens: row.total_tokens,
    llm_call_count: row.llm_call_count,
    lead_agent_tokens: row.lead_agent_tokens,
    subagent_tokens: row.subagent_tokens,
    middleware_tokens: row.middleware_tokens,
    token_usage_by_model: toDbJson(row.token_usage_by_model),
  };
}

type CompletionColumns = Pick<
  RunsInsert,
  | "message_count"
  | "first_human_message"
  | "last_ai_message"
  | "total_input_tokens"
  | "total_output_tokens"
  | "total_tokens"
  | "llm_call_count"
  | "lead_agent_tokens"
  | "subagent_tokens"
  | "middleware_tokens"
  | "token_usage_by_model"
>;

const COUNTER_FIELDS = [
  "message_count",
  "total_input_tokens",
  "total_output_tokens",
  "total_tokens",
  "llm_call_count",
  "lead_agent_tokens",
  "subagent_tokens",
  "middleware_tokens",
] as const;

/** Only the fields present in `data` (a partial update leaves the others alone). */
export function completionToDb(data: Partial<RunCompletionData>): Partial<CompletionColumns> {
  const columns: Partial<CompletionColumns> = {};
  for (const field of COUNTER_FIELDS) {
    const value = data[field];
    if (typeof value === "number") columns[field] = value;
  }
  if (data.token_usage_by_model !== undefined) {
    columns.token_usage_by_model = toDbJson(data.token_usage_by_model);
  }
  if (data.first_human_message !== undefined) {
    columns.first_human_message = truncateConvenienceMessage(data.first_human_message);
  }
  if (data.last_ai_message !== undefined) {
    columns.last_ai_message = truncateConvenienceMessage(data.last_ai_message);
  }
  return columns;
}
