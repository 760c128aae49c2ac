import type {
  CancelAction,
  DisconnectMode,
  EvidenceSealState,
  MultitaskStrategy,
  OperationKind,
  RunCompletionData,
  RunInvocation,
  RunRow,
  RunStatus,
} from "./run-types.js";
import type { FencedWrite } from "./write-fence.js";

/**
 * Owner scoping for reads and deletes: a string filters by that owner; `null` or omitted means no
 * filter (background work such as recovery binds the owner explicitly where it matters).
 */
export interface OwnerScope {
  userId?: string | null;
}

export interface NewThreadOperation {
  run_id: string;
  thread_id: string;
  assistant_id?: string | null;
  user_id?: string | null;
  operation_kind?: OperationKind;
  idempotency_key?: string | null;
  model_name?: string | null;
  multitask_strategy?: MultitaskStrategy;
  on_disconnect?: DisconnectMode;
  metadata?: Record<string, unknown>;
  kwargs?: RunInvocation;
  follow_up_to_run_id?: string | null;
  owner_worker_id?: string | null;
  lease_expires_at?: string | null;
  /** Kind `run` rows start with seal state `pending`; other kinds leave it null. */
  created_at: string;
}

export interface AdmissionOptions {
  strategy: MultitaskStrategy;
  /** The admitting worker: becomes the owner of rows interrupted by this admission. */
  workerId: string;
  /** "Now" for lease comparisons (injectable clock). */
  now: string;
  /** A live lease is one with `lease_expires_at >= now - graceSeconds`. */
  graceSeconds: number;
}

export type AdmissionResult =
  /** A new row was inserted. `interrupted` lists rows this admission moved to `interrupted`. */
  | { kind: "admitted"; row: RunRow; interrupted: RunRow[] }
  /** The idempotency key already names a run; nothing was written. */
  | { kind: "idempotent_replay"; row: RunRow };

/** `fence`: the write happens only while the row's owner is the fence's worker (see below). */
export interface StatusUpdate extends FencedWrite {
  error?: string | null;
  stopReason?: string | null;
}

export interface FinalizeResult {
  finalized: boolean;
  cancelAction: CancelAction | null;
}

export interface LeaseRenewal {
  renewed: boolean;
  cancelAction: CancelAction | null;
}

export interface TakeoverClaim {
  now: string;
  graceSeconds: number;
  error: string;
  stopReason?: string | null;
  /** The reclaiming worker becomes the row's owner. */
  workerId: string;
}

export interface EvidenceSeal {
  state: EvidenceSealState;
  error?: string | null;
  upperSeq?: number | null;
  eventCount?: number | null;
}

export interface ListRunsOptions extends OwnerScope {
  limit?: number;
  offset?: number;
  status?: RunStatus;
}

/**
 * Durable run rows. Every guarded write is one compare-and-set statement; booleans report whether
 * *this* call changed a row.
 *
 * Fenced writes (`fence` on a status update or in the write options): the statement also requires
 * `owner_worker_id = fence.workerId`, so it serializes with every owner change (takeover claims,
 * interrupting admissions); when the row is gone or owned by another worker nothing changes and
 * the call rejects with `OwnershipLostError`.
 */
export interface RunStore {
  /**
   * Admit a new operation on a thread in one atomic step.
   * - `reject`: insert; a thread with an active (non-queued pending/running) row → `ConflictError`.
   * - `interrupt` / `rollback`: in the same transaction move every active row of the thread to
   *   `interrupted` (error "Cancelled by newer run", owner := `workerId`) and insert. A row with a
   *   live lease owned by another worker, or an active non-run row with a live or NULL lease →
   *   `ConflictError`, with nothing changed.
   * - `enqueue`: insert with `queued = true` when the thread is busy, else as `reject` would.
   * - An existing `idempotency_key` returns `{kind: "idempotent_replay"}` (the caller checks
   *   thread/user equality).
   */
  createThreadOperation(
    input: NewThreadOperation,
    options: AdmissionOptions,
  ): Promise<AdmissionResult>;

  get(runId: string, scope?: OwnerScope): Promise<RunRow | null>;
  getByIdempotencyKey(key: string): Promise<RunRow | null>;
  /** Kind `run` rows only, newest first. */
  listByThread(threadId: string, options?: ListRunsOptions): Promise<RunRow[]>;

  /** Idempotent upsert of a whole snapshot (used to recreate a row that vanished). */
  put(row: RunRow): Promise<void>;

  /**
   * Only rows in {pending, running, interrupted} change. `true` = this call changed the row,
   * `false` = provably nothing changed, `null` = the store cannot tell.
   */
  updateStatus(runId: string, status: RunStatus, update?: StatusUpdate): Promise<boolean | null>;

  /** pending (and not queued) → running. */
  startRun(runId: string, now: string, options?: FencedWrite): Promise<boolean>;

  /** CAS: row active AND `cancel_action IS NULL` → status. Otherwise report the row's cancel action. */
  finalizeIfNotCancelled(
    runId: string,
    status: RunStatus,
    update?: StatusUpdate,
  ): Promise<FinalizeResult>;

  /** Active rows only; the first action wins and is returned; later calls return the winner. */
  requestCancel(runId: string, action: CancelAction, now: string): Promise<CancelAction | null>;

  /** Active rows owned by that worker only; returns the durable cancel request atomically. */
  renewLease(runId: string, ownerWorkerId: string, leaseExpiresAt: string): Promise<LeaseRenewal>;

  /** Active row whose lease is NULL or older than `now - grace` → `error`; one atomic UPDATE. */
  claimForTakeover(runId: string, claim: TakeoverClaim): Promise<boolean>;

  /** Active rows with `created_at <= before` and an expired/NULL lease, oldest first, any kind. */
  listInflightWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]>;

  /**
   * Kind `run` rows whose status is terminal but whose evidence seal is still `pending` and whose
   * lease is NULL or expired: the owner died between committing the status and sealing. Oldest
   * first.
   */
  listUnsealedTerminalWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]>;

  /**
   * CAS: a terminal row with seal `pending` and an expired/NULL lease → seal `partial` with
   * `error`, owner := `workerId`. Exactly one concurrent claimer wins.
   */
  claimUnsealedTerminal(
    runId: string,
    claim: { now: string; graceSeconds: number; workerId: string; error: string },
  ): Promise<boolean>;

  /**
   * Record completion data. Allowed from {pending, running, the same status}, plus `interrupted`
   * when `status` is `error`. Never replaces a different terminal status.
   */
  updateRunCompletion(
    runId: string,
    status: RunStatus,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<boolean>;

  /** Progress counters while `running`; status never changes. */
  updateRunProgress(
    runId: string,
    progress: Partial<RunCompletionData>,
    options?: FencedWrite,
  ): Promise<void>;

  updateModelName(runId: string, modelName: string, options?: FencedWrite): Promise<void>;

  /** A plain UPDATE of the evidence columns; never recreates a deleted row. */
  updateEvidenceSeal(runId: string, seal: EvidenceSeal, options?: FencedWrite): Promise<boolean>;

  /** The oldest queued run of the thread, made the active one if the thread has no active row. */
  promoteNextQueued(threadId: string): Promise<RunRow | null>;

  delete(runId: string, scope?: OwnerScope): Promise<boolean>;
  deleteByThread(threadId: string, scope?: OwnerScope): Promise<number>;

  close(): Promise<void>;
}
