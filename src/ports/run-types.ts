/** Vocabulary shared by the run runtime, its stores and the gateway. */

export const RUN_STATUSES = [
  "pending",
  "running",
  "success",
  "error",
  "timeout",
  "interrupted",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["pending", "running"];
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = [
  "success",
  "error",
  "timeout",
  "interrupted",
];

export function isActiveStatus(status: RunStatus): boolean {
  return status === "pending" || status === "running";
}

export function isTerminalStatus(status: RunStatus): boolean {
  return !isActiveStatus(status);
}

/** User-visible runs and the short internal reservations that share the one-active-per-thread rule. */
export const OPERATION_KINDS = ["run", "checkpoint_write", "artifact_write", "delete"] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const MULTITASK_STRATEGIES = ["reject", "interrupt", "rollback", "enqueue"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

export const CANCEL_ACTIONS = ["interrupt", "rollback"] as const;
export type CancelAction = (typeof CANCEL_ACTIONS)[number];

export function isCancelAction(value: unknown): value is CancelAction {
  return value === "interrupt" || value === "rollback";
}

export type DisconnectMode = "cancel" | "continue";

export type CancelOutcome =
  | "cancelled"
  | "requested"
  | "taken_over"
  | "lease_valid_elsewhere"
  | "not_cancellable"
  | "not_active_locally"
  | "unknown";

export type EvidenceSealState = "pending" | "sealed" | "partial";

export const ORPHAN_RECOVERY_STOP_REASON = "orphan_recovered";

export interface ModelTokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cache_read_tokens?: number;
}

export interface RunTokenTotals {
  total_input_tokens: number;
  total_output_tokens: number;
  total_tokens: number;
  llm_call_count: number;
  lead_agent_tokens: number;
  subagent_tokens: number;
  middleware_tokens: number;
  token_usage_by_model: Record<string, ModelTokenUsage>;
}

export interface RunCompletionData extends RunTokenTotals {
  message_count: number;
  first_human_message: string | null;
  last_ai_message: string | null;
}

/**
 * The durable run row. Field names are snake_case because they travel unchanged to the HTTP API.
 * Timestamps are ISO-8601 UTC strings.
 */
export interface RunRow extends RunCompletionData {
  run_id: string;
  thread_id: string;
  assistant_id: string | null;
  user_id: string | null;
  status: RunStatus;
  operation_kind: OperationKind;
  idempotency_key: string | null;
  model_name: string | null;
  multitask_strategy: MultitaskStrategy;
  on_disconnect: DisconnectMode;
  metadata: Record<string, unknown>;
  kwargs: Record<string, unknown>;
  error: string | null;
  stop_reason: string | null;
  follow_up_to_run_id: string | null;
  /**
   * True while an `enqueue` run waits behind the thread's active run. A queued run reads as
   * `pending` (LangGraph semantics) but does not hold the thread's active slot.
   */
  queued: boolean;
  owner_worker_id: string | null;
  lease_expires_at: string | null;
  cancel_action: CancelAction | null;
  cancel_requested_at: string | null;
  evidence_seal_state: EvidenceSealState | null;
  evidence_seal_error: string | null;
  evidence_upper_seq: number | null;
  evidence_event_count: number | null;
  created_at: string;
  updated_at: string;
}

export function emptyTokenTotals(): RunTokenTotals {
  return {
    total_input_tokens: 0,
    total_output_tokens: 0,
    total_tokens: 0,
    llm_call_count: 0,
    lead_agent_tokens: 0,
    subagent_tokens: 0,
    middleware_tokens: 0,
    token_usage_by_model: {},
  };
}
