import { Mutex } from "../core/async/mutex.js";
import type { Task } from "../core/async/task.js";
import {
  type CancelAction,
  type DisconnectMode,
  emptyTokenTotals,
  isActiveStatus,
  type MultitaskStrategy,
  type OperationKind,
  type RunInvocation,
  type RunRow,
  type RunStatus,
} from "../ports/run-types.js";
import {
  phaseOfRow,
  phaseProof,
  phaseStatus,
  type RunPhase,
  type TerminalCommitProof,
  transition,
} from "./lifecycle/run-phase.js";

/**
 * The process-local view of a run. The durable row is the source of truth across processes; this
 * record carries what only the owning process knows (its task, abort signal and its phase in the
 * terminal-commit protocol). `status` is derived from the phase, which changes only through
 * `transition()` (lifecycle/run-phase.ts holds the table).
 */
export class RunRecord {
  readonly runId: string;
  readonly threadId: string;
  readonly assistantId: string | null;
  readonly userId: string | null;
  readonly operationKind: OperationKind;
  readonly multitaskStrategy: MultitaskStrategy;
  readonly onDisconnect: DisconnectMode;
  readonly idempotencyKey: string | null;
  readonly metadata: Record<string, unknown>;
  readonly kwargs: RunInvocation;
  readonly createdAt: string;

  error: string | null = null;
  stopReason: string | null = null;
  modelName: string | null;
  updatedAt: string;
  private currentPhase: RunPhase;

  /** The host task executing the run (set by whoever launches the worker). */
  task: Task<void> | null = null;
  readonly startLock = new Mutex();
  /** Raised by every cancellation or fencing path; the worker's host phase watches it. */
  abortController = new AbortController();
  abortAction: CancelAction = "interrupt";
  /**
   * The manager's post-cancel barrier: blocks same-thread admission while true. Orthogonal to the
   * phase (a pending, staged, settled or fenced run may all still be finalizing).
   */
  finalizing = false;
  ownerWorkerId: string | null;
  /** The last durably confirmed lease deadline. */
  leaseExpiresAt: string | null;
  /** The admission that returned this record found it by its idempotency key (not a phase). */
  idempotencyReused = false;

  constructor(row: RunRow, options: { observed?: boolean } = {}) {
    this.runId = row.run_id;
    this.threadId = row.thread_id;
    this.assistantId = row.assistant_id;
    this.userId = row.user_id;
    this.operationKind = row.operation_kind;
    this.multitaskStrategy = row.multitask_strategy;
    this.onDisconnect = row.on_disconnect;
    this.idempotencyKey = row.idempotency_key;
    this.metadata = row.metadata;
    this.kwargs = row.kwargs;
    this.createdAt = row.created_at;
    this.currentPhase = phaseOfRow(row, options.observed ?? false);
    this.error = row.error;
    this.stopReason = row.stop_reason;
    this.modelName = row.model_name;
    this.updatedAt = row.updated_at;
    this.ownerWorkerId = row.owner_worker_id;
    this.leaseExpiresAt = row.lease_expires_at;
  }

  get phase(): RunPhase {
    return this.currentPhase;
  }

  /** The single writer of the phase: refuses a change PHASE_TRANSITIONS does not allow. */
  transition(next: RunPhase): void {
    this.currentPhase = transition(this.currentPhase, next);
  }

  /** The LangGraph-visible status, derived from the phase. */
  get status(): RunStatus {
    return phaseStatus(this.currentPhase);
  }

  get queued(): boolean {
    return this.currentPhase.kind === "queued";
  }

  /** Hydrated from the store for observation only; never executed here. */
  get storeOnly(): boolean {
    return this.currentPhase.kind === "observed";
  }

  /** Process-local fence: this worker must make no further durable writes for the run. */
  get ownershipLost(): boolean {
    return this.currentPhase.kind === "fenced";
  }

  get terminalCommitProof(): TerminalCommitProof | null {
    return phaseProof(this.currentPhase);
  }

  /** A terminal outcome is staged and not committed yet. */
  get terminalCommitPending(): boolean {
    return this.currentPhase.kind === "staged";
  }

  get rollbackFinalizationPending(): boolean {
    return this.currentPhase.kind === "staged" && this.currentPhase.restoring;
  }

  get abortSignal(): AbortSignal {
    return this.abortController.signal;
  }

  get aborted(): boolean {
    return this.abortController.signal.aborted;
  }

  /** Raise the abort flag once; later calls keep the first reason. */
  raiseAbort(reason: string): void {
    if (!this.abortController.signal.aborted) this.abortController.abort(reason);
  }

  isActive(): boolean {
    return isActiveStatus(this.status);
  }

  taskIsLive(): boolean {
    return this.task !== null && !this.task.isDone();
  }

  /** A snapshot in the durable row shape (completion data is zero: the row keeps the real totals). */
  toRow(): RunRow {
    return {
      run_id: this.runId,
      thread_id: this.threadId,
      assistant_id: this.assistantId,
      user_id: this.userId,
      status: this.status,
      operation_kind: this.operationKind,
      idempotency_key: this.idempotencyKey,
      model_name: this.modelName,
      multitask_strategy: this.multitaskStrategy,
      on_disconnect: this.onDisconnect,
      metadata: this.metadata,
      kwargs: this.kwargs,
      error: this.error,
      stop_reason: this.stopReason,
      follow_up_to_run_id: null,
      queued: this.queued,
      owner_worker_id: this.ownerWorkerId,
      lease_expires_at: this.leaseExpiresAt,
      cancel_action: null,
      cancel_requested_at: null,
      evidence_seal_state: this.operationKind === "run" ? "pending" : null,
      evidence_seal_error: null,
      evidence_upper_seq: null,
      evidence_event_count: null,
      created_at: this.createdAt,
      updated_at: this.updatedAt,
      message_count: 0,
      first_human_message: null,
      last_ai_message: null,
      ...emptyTokenTotals(),
    };
  }
}
