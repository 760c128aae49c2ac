import { RUN_STREAM_MODES, type RunStreamMode } from "./agent.js";

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
 * A LangGraph `Command` as it travels in JSON (an API request, a run's durable kwargs):
 * `resume` answers a pending `interrupt()`, `goto` names the next node(s) (a `{node, input}` entry
 * is a `Send`), `update` writes state first.
 */
export interface GraphCommandJson {
  resume?: unknown;
  goto?: GotoJson | GotoJson[] | null;
  update?: Record<string, unknown> | Array<[string, unknown]> | null;
}

export type GotoJson = string | { node: string; input?: unknown };

/**
 * What a run executes, kept in the run's durable `kwargs` so a queued run can start later, plus
 * the delivery options the gateway reads back when the run completes. One shape from the HTTP
 * request to the worker.
 */
export interface RunInvocation {
  /**
   * Host-only: the graph the run executes, resolved from its assistant at admission (absent:
   * the run's assistant id names the graph, `lead_agent` when it has none).
   */
  graph_id?: string;
  /** The graph input; absent only for a thread operation, which executes nothing. */
  input?: unknown;
  /** When set, the graph is driven by this LangGraph `Command` instead of `input`. */
  command?: GraphCommandJson | null;
  config?: Record<string, unknown>;
  stream_mode?: RunStreamMode[];
  stream_subgraphs?: boolean;
  interrupt_before?: string[] | "*";
  interrupt_after?: string[] | "*";
  /** Posted the run's final values when it completes. */
  webhook?: string;
  /**
   * The LangSmith project this run's trace is filed under (the body's
   * `langsmith_tracer.project_name`); used only when LangSmith tracing is on.
   */
  langsmith_project?: string;
  /** A stateless run's own thread under `on_completion: "delete"` (LangGraph's `temporary`). */
  temporary?: boolean;
  /**
   * Host-only: who admitted the run when it was not a plain API client (a plugin's run handle).
   * Never copied from a request body; proves a run is a plugin's own admission.
   */
  origin?: RunOrigin;
  /**
   * Host-only: files imported into the thread that must be unchanged before the agent is built
   * (checked by the run's `prepareRun` hook). Never copied from a request body, never shown.
   */
  artifact_imports?: ArtifactReceiptJson[];
}

/** Who admitted a run on the server's side (stamped by the host, never by a client). */
export interface RunOrigin {
  kind: "extension";
  /** The plugin namespace of the handle that admitted it ("" for an unbound handle). */
  namespace: string;
}

/** A receipt of a file the host wrote into a thread's uploads, as a run's kwargs keep it. */
export interface ArtifactReceiptJson {
  filename: string;
  /** `/mnt/user-data/uploads/<filename>`. */
  path: string;
  /** Hex SHA-256 of the bytes written. */
  sha256: string;
  size: number;
}

/**
 * Read stored `kwargs` back as a `RunInvocation`: every field of the shape written is checked and
 * a field that does not match it is dropped, so the worker never executes a malformed value.
 */
export function decodeRunInvocation(value: Record<string, unknown>): RunInvocation {
  const invocation: RunInvocation = {};
  if (typeof value.graph_id === "string") invocation.graph_id = value.graph_id;
  if (value.input !== undefined) invocation.input = value.input;
  if (value.command === null || isGraphCommandJson(value.command)) {
    invocation.command = value.command;
  }
  if (isRecord(value.config)) invocation.config = value.config;
  const modes = value.stream_mode;
  if (Array.isArray(modes) && modes.every(isRunStreamMode)) invocation.stream_mode = modes;
  if (typeof value.stream_subgraphs === "boolean") {
    invocation.stream_subgraphs = value.stream_subgraphs;
  }
  if (isNodeSelection(value.interrupt_before)) invocation.interrupt_before = value.interrupt_before;
  if (isNodeSelection(value.interrupt_after)) invocation.interrupt_after = value.interrupt_after;
  if (typeof value.webhook === "string") invocation.webhook = value.webhook;
  if (typeof value.temporary === "boolean") invocation.temporary = value.temporary;
  if (isRunOrigin(value.origin)) invocation.origin = value.origin;
  const imports = value.artifact_imports;
  if (Array.isArray(imports) && imports.every(isArtifactReceiptJson)) {
    invocation.artifact_imports = imports;
  }
  return invocation;
}

function isRunOrigin(value: unknown): value is RunOrigin {
  return isRecord(value) && value.kind === "extension" && typeof value.namespace === "string";
}

export function isArtifactReceiptJson(value: unknown): value is ArtifactReceiptJson {
  return (
    isRecord(value) &&
    typeof value.filename === "string" &&
    typeof value.path === "string" &&
    typeof value.sha256 === "string" &&
    typeof value.size === "number"
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRunStreamMode(value: unknown): value is RunStreamMode {
  return RUN_STREAM_MODES.some((mode) => mode === value);
}

function isNodeSelection(value: unknown): value is string[] | "*" {
  return value === "*" || (Array.isArray(value) && value.every((v) => typeof v === "string"));
}

function isGoto(value: unknown): value is GotoJson {
  return typeof value === "string" || (isRecord(value) && typeof value.node === "string");
}

function isGraphCommandJson(value: unknown): value is GraphCommandJson {
  if (!isRecord(value)) return false;
  const { goto, update } = value;
  const gotoOk = goto == null || isGoto(goto) || (Array.isArray(goto) && goto.every(isGoto));
  const updateOk =
    update == null ||
    isRecord(update) ||
    (Array.isArray(update) &&
      update.every((u) => Array.isArray(u) && u.length === 2 && typeof u[0] === "string"));
  return gotoOk && updateOk;
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
  /** What the run executes (empty for a thread operation's reservation row). */
  kwargs: RunInvocation;
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
