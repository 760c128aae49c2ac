import { Mutex } from "../core/async/mutex.js";
import type { Task } from "../core/async/task.js";
import {
  type CancelAction,
  type DisconnectMode,
  emptyTokenTotals,
  isActiveStatus,
  type MultitaskStrategy,
  type OperationKind,
  type RunRow,
  type RunStatus,
} from "../ports/run-types.js";

/** Proof that a terminal status write was attributably acknowledged to this manager. */
export interface TerminalCommitProof {
  status: RunStatus;
}

/**
 * The process-local view of a run. The durable row is the source of truth across processes; this
 * record carries what only the owning process knows (its task, abort signal, fencing and the
 * terminal-commit bookkeeping).
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
  readonly kwargs: Record<string, unknown>;
  readonly createdAt: string;

  status: RunStatus;
  error: string | null = null;
  stopReason: string | null = null;
  modelName: string | null;
  updatedAt: string;
  queued: boolean;

  /** The host task executing the run (set by whoever launches the worker). */
  task: Task<void> | null = null;
  readonly startLock = new Mutex();
  /** Raised by every cancellation or fencing path; the worker's host phase watches it. */
  abortController = new AbortController();
  abortAction: CancelAction = "interrupt";
  /** Hydrated from the store for observation only; never executed here. */
  storeOnly = false;
  /** Post-cancel barrier: blocks same-thread admission while true. */
  finalizing = false;
  ownerWorkerId: string | null;
  /** The last durably confirmed lease deadline. */
  leaseExpiresAt: string | null;
  /** Process-local fence: this worker must make no further durable writes for the run. */
  ownershipLost = false;
  idempotencyReused = false;
  terminalCommitProof: TerminalCommitProof | null = null;
  terminalCommitPending = false;
  rollbackFinalizationPending = false;

  constructor(row: RunRow) {
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
    this.status = row.status;
    this.error = row.error;
    this.stopReason = row.stop_reason;
    this.modelName = row.model_name;
    this.updatedAt = row.updated_at;
    this.queued = row.queued;
    this.ownerWorkerId = row.owner_worker_id;
    this.leaseExpiresAt = row.lease_expires_at;
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

/** Moved to the ports, where the stores build the same row; re-exported for the runtime's callers. */
export { newRunRow } from "../ports/run-row.js";
