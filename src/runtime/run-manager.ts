import { Mutex } from "../core/async/mutex.js";
import { addSeconds, type Clock, systemClock } from "../core/clock.js";
import {
  ConflictError,
  describeError,
  IdempotencyMismatchError,
  isOwnershipLostError,
  RunStartupError,
  UnsupportedStrategyError,
} from "../core/errors.js";
import { newRunId, newWorkerId } from "../core/ids.js";
import { type Logger, rootLogger } from "../core/logger.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { NewThreadOperation, RunStore, StatusUpdate } from "../ports/run-store.js";
import {
  type CancelAction,
  type CancelOutcome,
  type DisconnectMode,
  isTerminalStatus,
  MULTITASK_STRATEGIES,
  type MultitaskStrategy,
  type OperationKind,
  ORPHAN_RECOVERY_STOP_REASON,
  type RunCompletionData,
  type RunRow,
  type RunStatus,
} from "../ports/run-types.js";
import type { FencedWrite, WriteFence } from "../ports/write-fence.js";
import { LeaseHeartbeat, type OwnershipConfig, resolveOwnershipConfig } from "./lease-heartbeat.js";
import { type ConfirmTerminal, publishRecoveredEvidence } from "./recovery.js";
import { newRunRow, RunRecord } from "./run-record.js";

export interface AdmitOptions {
  assistantId?: string | null;
  userId?: string | null;
  onDisconnect?: DisconnectMode;
  metadata?: Record<string, unknown>;
  kwargs?: Record<string, unknown>;
  multitaskStrategy?: MultitaskStrategy;
  modelName?: string | null;
  idempotencyKey?: string | null;
  operationKind?: OperationKind;
  runId?: string;
}

export interface RunManagerOptions {
  store?: RunStore | null;
  /** Used to backfill evidence for runs this manager recovers (the worker uses its own). */
  eventStore?: RunEventStore | null;
  /** Replaceable terminal publisher for recovery (tests break or observe it). */
  confirmTerminal?: ConfirmTerminal;
  workerId?: string;
  ownership?: Partial<OwnershipConfig> | null;
  clock?: Clock;
  logger?: Logger;
}

export interface SetStatusOptions extends StatusUpdate {
  persist?: boolean;
}

const CANCELLED_BY_NEWER_RUN = "Cancelled by newer run";

/**
 * Admission, status bookkeeping, cancellation, leases and shutdown for the runs this process
 * owns. The run store is the cross-process source of truth; the manager keeps the local records
 * of the runs it executes.
 */
export class RunManager {
  readonly store: RunStore | null;
  readonly eventStore: RunEventStore | null;
  confirmTerminal: ConfirmTerminal | undefined;
  readonly workerId: string;
  readonly ownership: OwnershipConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly heartbeat: LeaseHeartbeat;
  private readonly records = new Map<string, RunRecord>();
  private readonly mutex = new Mutex();
  private finalizingWaiters: Array<() => void> = [];

  constructor(options: RunManagerOptions = {}) {
    this.store = options.store ?? null;
    this.eventStore = options.eventStore ?? null;
    this.confirmTerminal = options.confirmTerminal;
    this.workerId = options.workerId ?? newWorkerId();
    this.ownership = resolveOwnershipConfig(options.ownership);
    this.clock = options.clock ?? systemClock;
    this.logger = (options.logger ?? rootLogger).child({ component: "run-manager" });
    this.heartbeat = new LeaseHeartbeat(this);
  }

  /**
   * The fence of every durable write this process makes for a run it executes: the owner the run
   * row named when the run was admitted or promoted. None without a run store (nothing to fence).
   */
  writeFence(record: RunRecord): WriteFence | undefined {
    if (!this.store || record.ownerWorkerId === null) return undefined;
    return { runId: record.runId, workerId: record.ownerWorkerId };
  }

  private fenced(record: RunRecord): FencedWrite {
    const fence = this.writeFence(record);
    return fence ? { fence } : {};
  }

  get heartbeatEnabled(): boolean {
    return this.ownership.heartbeatEnabled;
  }

  nowIso(): string {
    return this.clock.now().toISOString();
  }

  // ---- admission --------------------------------------------------------------------------

  /** Admit a run on a thread under its multitask strategy; see docs/ARCHITECTURE.md "Admission". */
  async createOrReject(threadId: string, options: AdmitOptions = {}): Promise<RunRecord> {
    const strategy = options.multitaskStrategy ?? "reject";
    if (!MULTITASK_STRATEGIES.includes(strategy))
      throw new UnsupportedStrategyError(String(strategy));
    const superseded: RunRecord[] = [];
    const record = await this.mutex.runExclusive(async () => {
      const reused = this.findIdempotentLocal(threadId, options);
      if (reused) return reused;
      const inflight = this.localInflight(threadId);
      if (strategy === "reject" && inflight.length > 0) {
        throw new ConflictError(
          `Thread ${threadId} already has an active run; wait for it or cancel it.`,
        );
      }
      if (
        (strategy === "interrupt" || strategy === "rollback") &&
        inflight.some((r) => r.operationKind !== "run")
      ) {
        throw new ConflictError(
          `Thread ${threadId} has an active internal operation; retry shortly.`,
        );
      }
      const now = this.clock.now();
      const operation: NewThreadOperation = {
        run_id: options.runId ?? newRunId(),
        thread_id: threadId,
        assistant_id: options.assistantId ?? null,
        user_id: options.userId ?? null,
        operation_kind: options.operationKind ?? "run",
        idempotency_key: options.idempotencyKey ?? null,
        model_name: options.modelName ?? null,
        multitask_strategy: strategy,
        on_disconnect: options.onDisconnect ?? "continue",
        metadata: options.metadata ?? {},
        kwargs: options.kwargs ?? {},
        owner_worker_id: this.workerId,
        lease_expires_at: this.heartbeatEnabled
          ? addSeconds(now, this.ownership.leaseSeconds).toISOString()
          : null,
        created_at: now.toISOString(),
      };
      const row = await this.admitDurably(operation, strategy, inflight);
      if (row.run_id !== operation.run_id) return this.adoptIdempotentRow(row, threadId, options);
      const admitted = new RunRecord(row);
      this.records.set(admitted.runId, admitted);
      if (strategy === "interrupt" || strategy === "rollback") {
        for (const previous of inflight) {
          if (previous.finalizing) continue;
          previous.abortAction = strategy;
          previous.raiseAbort(CANCELLED_BY_NEWER_RUN);
          previous.finalizing = previous.taskIsLive();
          previous.task?.cancel(CANCELLED_BY_NEWER_RUN);
          previous.status = "interrupted";
          previous.error = CANCELLED_BY_NEWER_RUN;
          superseded.push(previous);
        }
      }
      return admitted;
    });
    for (const previous of superseded) {
      await this.persistStatus(previous, "interrupted", { error: CANCELLED_BY_NEWER_RUN });
    }
    return record;
  }

  private findIdempotentLocal(threadId: string, options: AdmitOptions): RunRecord | null {
    const key = options.idempotencyKey;
    if (!key) return null;
    for (const record of this.records.values()) {
      if (record.idempotencyKey !== key) continue;
      if (record.threadId !== threadId || record.userId !== (options.userId ?? null)) {
        throw new IdempotencyMismatchError(key);
      }
      record.idempotencyReused = true;
      return record;
    }
    return null;
  }

  private adoptIdempotentRow(row: RunRow, threadId: string, options: AdmitOptions): RunRecord {
    const key = options.idempotencyKey ?? "";
    if (row.thread_id !== threadId || row.user_id !== (options.userId ?? null)) {
      throw new IdempotencyMismatchError(key);
    }
    const record = this.records.get(row.run_id) ?? this.hydrate(row);
    record.idempotencyReused = true;
    return record;
  }

  /** Insert the admission row (or decide locally when there is no store). */
  private async admitDurably(
    operation: NewThreadOperation,
    strategy: MultitaskStrategy,
    inflight: RunRecord[],
  ): Promise<RunRow> {
    if (this.store) {
      const result = await this.store.createThreadOperation(operation, {
        strategy,
        workerId: this.workerId,
        now: this.nowIso(),
        graceSeconds: this.ownership.graceSeconds,
      });
      return result.row;
    }
    return newRunRow(operation, { queued: strategy === "enqueue" && inflight.length > 0 });
  }

  private hydrate(row: RunRow): RunRecord {
    const record = new RunRecord(row);
    record.storeOnly = true;
    return record;
  }

  /** This thread's local runs that are active or still finalizing. */
  localInflight(threadId: string): RunRecord[] {
    return [...this.records.values()].filter(
      (r) => r.threadId === threadId && (r.isActive() || r.finalizing),
    );
  }

  hasInflight(threadId: string): boolean {
    return this.localInflight(threadId).some((r) => r.operationKind === "run");
  }

  // ---- reads ------------------------------------------------------------------------------

  getLocal(runId: string): RunRecord | null {
    return this.records.get(runId) ?? null;
  }

  /** The local record, else a read-only record hydrated from the store. */
  async get(runId: string, scope: { userId?: string | null } = {}): Promise<RunRecord | null> {
    const local = this.records.get(runId);
    if (local) {
      if (scope.userId != null && local.userId !== scope.userId) return null;
      return local;
    }
    if (!this.store) return null;
    try {
      const row = await this.store.get(runId, scope);
      return this.records.get(runId) ?? (row ? this.hydrate(row) : null);
    } catch (error) {
      this.logger.warn({ runId, error: describeError(error) }, "run lookup failed");
      return null;
    }
  }

  localRecords(): RunRecord[] {
    return [...this.records.values()];
  }

  /** Drop a finished run's local record (the durable row stays). */
  forget(runId: string): void {
    const record = this.records.get(runId);
    if (record && !record.isActive() && !record.finalizing && !record.taskIsLive()) {
      this.records.delete(runId);
    }
  }

  // ---- start ------------------------------------------------------------------------------

  async tryStart(runId: string): Promise<"started" | "cancelled"> {
    const record = this.records.get(runId);
    if (!record) throw new RunStartupError(`Run ${runId} is not known to this process.`);
    return record.startLock.runExclusive(async () => {
      if (record.aborted || record.status !== "pending" || record.queued) return "cancelled";
      if (this.store) {
        let started: boolean;
        try {
          started = await this.store.startRun(runId, this.nowIso(), this.fenced(record));
        } catch (error) {
          if (isOwnershipLostError(error)) {
            this.markOwnershipLost(record, describeError(error));
            return "cancelled";
          }
          throw new RunStartupError(`Run ${runId} could not be started: ${describeError(error)}`, {
            cause: error,
          });
        }
        if (!started) {
          record.status = "interrupted";
          record.raiseAbort("start refused by the store");
          return "cancelled";
        }
      }
      if (record.aborted || record.status !== "pending") {
        await this.persistStatus(record, record.status, { error: record.error });
        return "cancelled";
      }
      record.status = "running";
      record.updatedAt = this.nowIso();
      return "started";
    });
  }

  /** A queued run became the thread's active run (after `promoteNextQueued`). */
  markPromoted(row: RunRow): RunRecord {
    const record = this.records.get(row.run_id) ?? new RunRecord(row);
    record.queued = false;
    this.records.set(record.runId, record);
    return record;
  }

  /** Make the thread's oldest queued run its active run, if the thread is free. */
  async promoteNextQueued(threadId: string): Promise<RunRecord | null> {
    if (this.store) {
      const row = await this.store.promoteNextQueued(threadId);
      return row ? this.markPromoted(row) : null;
    }
    return this.mutex.runExclusive(async () => {
      const inflight = this.localInflight(threadId);
      if (inflight.some((r) => !r.queued && (r.isActive() || r.finalizing))) return null;
      const next = inflight
        .filter((r) => r.queued && r.status === "pending")
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
      if (!next) return null;
      next.queued = false;
      return next;
    });
  }

  async failStartIfPending(runId: string, error: string): Promise<void> {
    const record = this.records.get(runId);
    if (record?.status !== "pending") return;
    record.raiseAbort(error);
    await this.setStatus(runId, "error", { error });
  }

  // ---- status family ----------------------------------------------------------------------

  async setStatus(runId: string, status: RunStatus, options: SetStatusOptions = {}): Promise<void> {
    const record = this.records.get(runId);
    if (!record || record.ownershipLost) return;
    this.applyLocally(record, status, options);
    if (options.persist === false) {
      if (isTerminalStatus(status)) record.terminalCommitPending = true;
      return;
    }
    const persisted = await this.persistStatus(record, status, options);
    if (!persisted) this.fenceUnconfirmedSuccess(record, status);
  }

  /** Persist whatever status the record has staged; clears `terminalCommitPending`. */
  async persistCurrentStatus(runId: string): Promise<boolean> {
    const record = this.records.get(runId);
    if (!record) return false;
    try {
      if (record.ownershipLost) return false;
      const persisted = await this.persistStatus(record, record.status, {
        error: record.error,
        stopReason: record.stopReason,
      });
      if (!persisted) this.fenceUnconfirmedSuccess(record, record.status);
      return persisted;
    } finally {
      record.terminalCommitPending = false;
    }
  }

  /**
   * Commit a completion unless a durable cancel request won first (CAS with heartbeat + store).
   * Returns the winning cancel action, or null when the status was applied.
   */
  async setStatusIfNotCancelled(
    runId: string,
    status: RunStatus,
    options: SetStatusOptions = {},
  ): Promise<CancelAction | null> {
    const record = this.records.get(runId);
    if (!record || record.ownershipLost) return null;
    if (!this.heartbeatEnabled || !this.store || options.persist === false) {
      await this.setStatus(runId, status, options);
      return null;
    }
    let result: { finalized: boolean; cancelAction: CancelAction | null };
    try {
      result = await this.store.finalizeIfNotCancelled(runId, status, {
        ...options,
        ...this.fenced(record),
      });
    } catch (error) {
      this.markOwnershipLost(record, `completion could not be confirmed: ${describeError(error)}`);
      return null;
    }
    if (!result.finalized && result.cancelAction) {
      record.abortAction = result.cancelAction;
      record.raiseAbort(`cancel requested: ${result.cancelAction}`);
      return result.cancelAction;
    }
    if (result.finalized) {
      this.applyLocally(record, status, options);
      if (isTerminalStatus(status)) record.terminalCommitProof = { status };
      record.terminalCommitPending = false;
      return null;
    }
    await this.setStatus(runId, status, options);
    return null;
  }

  private applyLocally(record: RunRecord, status: RunStatus, update: StatusUpdate): void {
    record.status = status;
    if (update.error !== undefined) record.error = update.error;
    if (update.stopReason !== undefined) record.stopReason = update.stopReason;
    record.updatedAt = this.nowIso();
  }

  /** A success that could not be durably confirmed must not be trusted by a leased worker. */
  private fenceUnconfirmedSuccess(record: RunRecord, status: RunStatus): void {
    if (this.heartbeatEnabled && status === "success" && !record.ownershipLost) {
      this.markOwnershipLost(record, "success could not be durably confirmed");
    }
  }

  /**
   * Best-effort durable status write. Records a terminal-commit proof only when the write was
   * attributably acknowledged to this manager.
   */
  async persistStatus(
    record: RunRecord,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<boolean> {
    if (record.ownershipLost) return false;
    const terminal = isTerminalStatus(status);
    if (!this.store) {
      if (terminal) record.terminalCommitProof = { status };
      return true;
    }
    try {
      const changed = await this.fencedStatusWrite(record, status, update);
      if (changed === true) {
        if (terminal) record.terminalCommitProof = { status };
        return true;
      }
      if (changed === null) return true; // Persisted as far as the store can tell, but not attributable.
      if (record.ownershipLost) return false;
      const row = await this.store.get(record.runId);
      if (!row) {
        await this.store.put({
          ...record.toRow(),
          status,
          error: record.error,
          stop_reason: record.stopReason,
        });
        if (terminal) record.terminalCommitProof = { status };
        return true;
      }
      if (row.status === status) return true;
      if (row.status === "error" && this.heartbeatEnabled && !record.storeOnly) {
        this.markOwnershipLost(record, `run was taken over: ${row.error ?? "peer takeover"}`);
      }
      return false;
    } catch (error) {
      this.logger.warn(
        { runId: record.runId, status, error: describeError(error) },
        "status write failed",
      );
      return false;
    }
  }

  /**
   * The fenced status UPDATE. Another owner → fenced locally, `false`. A vanished row → `false`
   * too, so the caller recreates it as it always did (the recreated row names this owner).
   */
  private async fencedStatusWrite(
    record: RunRecord,
    status: RunStatus,
    update: StatusUpdate,
  ): Promise<boolean | null> {
    const store = this.store;
    if (!store) return null;
    try {
      return await store.updateStatus(record.runId, status, { ...update, ...this.fenced(record) });
    } catch (error) {
      if (!isOwnershipLostError(error)) throw error;
      if ((await store.get(record.runId)) !== null) {
        this.markOwnershipLost(record, describeError(error));
      }
      return false;
    }
  }

  async updateRunCompletion(
    runId: string,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<void> {
    const record = this.records.get(runId);
    if (!record || record.ownershipLost || !this.store) return;
    try {
      const ok = await this.store.updateRunCompletion(runId, record.status, {
        ...completion,
        ...this.fenced(record),
      });
      if (!ok) {
        const row = await this.store.get(runId);
        if (row?.status === "error" && row.status !== record.status && this.heartbeatEnabled) {
          this.markOwnershipLost(record, "run was taken over before completion was recorded");
        }
      }
    } catch (error) {
      if (isOwnershipLostError(error)) this.markOwnershipLost(record, describeError(error));
      else this.logger.warn({ runId, error: describeError(error) }, "completion write failed");
    }
  }

  async updateRunProgress(runId: string, progress: Partial<RunCompletionData>): Promise<void> {
    const record = this.records.get(runId);
    if (!record || record.ownershipLost || record.status !== "running" || !this.store) return;
    await this.store
      .updateRunProgress(runId, progress, this.fenced(record))
      .catch((error: unknown) => {
        if (isOwnershipLostError(error)) this.markOwnershipLost(record, describeError(error));
        else this.logger.debug({ runId, error: describeError(error) }, "progress write failed");
      });
  }

  async updateModelName(runId: string, modelName: string): Promise<void> {
    const record = this.records.get(runId);
    if (!record || record.ownershipLost) return;
    record.modelName = modelName;
    await this.store
      ?.updateModelName(runId, modelName, this.fenced(record))
      .catch((error: unknown) => {
        if (isOwnershipLostError(error)) this.markOwnershipLost(record, describeError(error));
      });
  }

  setFinalizing(runId: string, finalizing: boolean): void {
    const record = this.records.get(runId);
    if (!record) return;
    record.finalizing = finalizing;
    if (!finalizing) this.notifyFinalizingChanged();
  }

  /** Final status with an attributable commit ACK, no staged or pending work, not fenced. */
  hasFinalTerminalAck(record: RunRecord): boolean {
    return (
      isTerminalStatus(record.status) &&
      record.terminalCommitProof?.status === record.status &&
      !record.terminalCommitPending &&
      !record.rollbackFinalizationPending &&
      !record.ownershipLost
    );
  }

  /** The status a `run.terminal` event may state, or null when it is not provably committed. */
  terminalEventStatus(record: RunRecord): RunStatus | null {
    return this.hasFinalTerminalAck(record) ? record.status : null;
  }

  // ---- ordering between runs of one thread ------------------------------------------------

  /** Wait until no earlier run of the thread is still finalizing (or `signal` aborts). */
  async waitForPriorFinalizing(
    threadId: string,
    runId: string,
    signal?: AbortSignal,
  ): Promise<void> {
    for (;;) {
      if (signal?.aborted) return;
      const current = this.records.get(runId);
      const prior = [...this.records.values()].some(
        (r) =>
          r.threadId === threadId &&
          r.runId !== runId &&
          r.finalizing &&
          (current === undefined || r.createdAt <= current.createdAt),
      );
      if (!prior) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal?.removeEventListener("abort", done);
          resolve();
        };
        this.finalizingWaiters.push(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  private notifyFinalizingChanged(): void {
    const waiters = this.finalizingWaiters;
    this.finalizingWaiters = [];
    for (const wake of waiters) wake();
  }

  // ---- cancellation -----------------------------------------------------------------------

  async cancel(runId: string, options: { action?: CancelAction } = {}): Promise<CancelOutcome> {
    const action = options.action ?? "interrupt";
    const record = this.records.get(runId);
    if (!record || record.storeOnly) return this.cancelNonLocal(runId, action);
    if (record.status === "interrupted") return "cancelled";
    if (isTerminalStatus(record.status) && !(this.heartbeatEnabled && this.store))
      return "not_cancellable";
    let effective = action;
    let durableCancelWon = false;
    if (this.heartbeatEnabled && this.store && record.isActive()) {
      try {
        const winner = await this.store.requestCancel(runId, action, this.nowIso());
        if (winner) {
          effective = winner;
          durableCancelWon = true;
        }
      } catch (error) {
        this.logger.warn(
          { runId, error: describeError(error) },
          "durable cancel request failed; cancelling locally",
        );
      }
    }
    const outcome = await this.mutex.runExclusive(async (): Promise<CancelOutcome | null> => {
      if (record.status === "interrupted" || record.aborted) return "cancelled";
      if (isTerminalStatus(record.status))
        return durableCancelWon ? "cancelled" : "not_cancellable";
      record.abortAction = effective;
      record.raiseAbort(`cancelled by user (${effective})`);
      record.finalizing = record.taskIsLive();
      if (record.status === "running") record.task?.cancel(`Run ${runId} cancelled (${effective})`);
      record.status = "interrupted";
      record.updatedAt = this.nowIso();
      return null;
    });
    if (outcome) return outcome;
    const persisted = await this.persistStatus(record, "interrupted", { error: record.error });
    if (!persisted && this.store) {
      const row = await this.store.get(runId).catch(() => null);
      if (row?.status === "error") return "taken_over";
    }
    return "cancelled";
  }

  /** Cancel a run this process does not execute: request it durably, or take it over if orphaned. */
  private async cancelNonLocal(runId: string, action: CancelAction): Promise<CancelOutcome> {
    if (!this.heartbeatEnabled) return "not_active_locally";
    if (!this.store) return "unknown";
    const row = await this.store.get(runId).catch(() => null);
    if (!row) return "unknown";
    if (row.status === "interrupted") return "requested";
    if (isTerminalStatus(row.status)) return "not_cancellable";
    if (this.leaseIsLive(row)) {
      const winner = await this.store.requestCancel(runId, action, this.nowIso()).catch(() => null);
      return winner ? "requested" : "unknown";
    }
    const claimed = await this.store.claimForTakeover(runId, {
      now: this.nowIso(),
      graceSeconds: this.ownership.graceSeconds,
      error: `Run reclaimed by ${this.workerId}: previous owner ${row.owner_worker_id ?? "unknown"} stopped renewing its lease`,
      stopReason: "orphan_recovered",
      workerId: this.workerId,
    });
    if (claimed) {
      await this.publishRecovered({ ...row, status: "error" });
      return "taken_over";
    }
    const after = await this.store.get(runId).catch(() => null);
    if (after?.status === "error") return "taken_over";
    if (after && isTerminalStatus(after.status)) return "not_cancellable";
    return "requested";
  }

  /**
   * Take over runs whose owner stopped renewing its lease (past the grace): exactly one claim
   * wins per run; the winner marks it `error` and backfills its evidence. Returns the recovered
   * user-visible runs (internal operations are closed but not reported).
   */
  async reconcileOrphanedInflightRuns(options: {
    error: string;
    before?: string;
    stopReason?: string | null;
  }): Promise<RunRecord[]> {
    const store = this.store;
    if (!store) return [];
    const now = this.nowIso();
    let candidates: RunRow[];
    try {
      candidates = await store.listInflightWithExpiredLease({
        before: options.before ?? now,
        now,
        graceSeconds: this.ownership.graceSeconds,
      });
    } catch (error) {
      this.logger.error({ error: describeError(error) }, "orphan scan failed");
      return [];
    }
    const recovered: RunRecord[] = [];
    for (const row of candidates) {
      const local = this.records.get(row.run_id);
      if (local && !local.storeOnly && (local.isActive() || local.finalizing || local.taskIsLive()))
        continue;
      const stopReason = options.stopReason ?? ORPHAN_RECOVERY_STOP_REASON;
      let claimed = false;
      try {
        claimed = await store.claimForTakeover(row.run_id, {
          now: this.nowIso(),
          graceSeconds: this.ownership.graceSeconds,
          error: options.error,
          stopReason,
          workerId: this.workerId,
        });
      } catch (error) {
        this.logger.warn(
          { runId: row.run_id, error: describeError(error) },
          "takeover claim failed",
        );
      }
      if (!claimed) continue; // The owner renewed, or another reconciler won.
      const claimedRow: RunRow = {
        ...row,
        status: "error",
        error: options.error,
        stop_reason: stopReason,
      };
      if (row.operation_kind !== "run") continue;
      await this.publishRecovered(claimedRow);
      const record = local ?? this.hydrate(claimedRow);
      record.status = "error";
      record.error = options.error;
      record.stopReason = stopReason;
      recovered.push(record);
    }
    if (recovered.length > 0) {
      this.logger.warn({ runIds: recovered.map((r) => r.runId) }, "recovered orphaned runs");
    }
    return recovered;
  }

  /**
   * Finish the evidence of runs whose owner died after committing a terminal status but before
   * sealing: one claimer per run publishes the recovered `run.terminal` (stating the committed
   * status) and seals `partial`. The status itself never changes.
   */
  async recoverUnsealedRuns(options: { before?: string } = {}): Promise<RunRecord[]> {
    const store = this.store;
    if (!store || !this.eventStore) return [];
    const now = this.nowIso();
    let candidates: RunRow[];
    try {
      candidates = await store.listUnsealedTerminalWithExpiredLease({
        before: options.before ?? now,
        now,
        graceSeconds: this.ownership.graceSeconds,
      });
    } catch (error) {
      this.logger.error({ error: describeError(error) }, "unsealed-run scan failed");
      return [];
    }
    const resealed: RunRecord[] = [];
    for (const row of candidates) {
      const local = this.records.get(row.run_id);
      if (local && !local.storeOnly && (local.finalizing || local.taskIsLive())) continue;
      const claimed = await store
        .claimUnsealedTerminal(row.run_id, {
          now: this.nowIso(),
          graceSeconds: this.ownership.graceSeconds,
          workerId: this.workerId,
          error: "Run owner stopped before sealing its evidence",
        })
        .catch(() => false);
      if (!claimed) continue;
      await this.publishRecovered(row);
      resealed.push(local ?? this.hydrate(row));
    }
    return resealed;
  }

  private async publishRecovered(row: RunRow): Promise<void> {
    if (!this.store) return;
    await publishRecoveredEvidence(
      {
        runs: this.store,
        events: this.eventStore,
        confirmTerminal: this.confirmTerminal,
        logger: this.logger,
        workerId: this.workerId,
      },
      row,
    ).catch((error: unknown) => {
      this.logger.error(
        { runId: row.run_id, error: describeError(error) },
        "recovery evidence failed",
      );
    });
  }

  leaseIsLive(row: Pick<RunRow, "lease_expires_at">): boolean {
    if (!row.lease_expires_at) return false;
    const deadline = new Date(row.lease_expires_at).getTime();
    if (Number.isNaN(deadline)) return false;
    return deadline >= this.clock.now().getTime() - this.ownership.graceSeconds * 1000;
  }

  /** Fence a run locally: no further durable writes from this worker. Never writes the store. */
  markOwnershipLost(record: RunRecord, reason: string): void {
    if (record.ownershipLost) return;
    record.ownershipLost = true;
    record.raiseAbort(reason);
    record.status = "error";
    record.error = reason;
    this.logger.warn({ runId: record.runId, reason }, "run fenced: ownership lost");
    if (record.task && record.task.name !== `run-finalization-${record.runId}`) {
      record.task.cancel(reason);
    }
  }

  // ---- heartbeat and shutdown -------------------------------------------------------------

  startHeartbeat(): void {
    this.heartbeat.start();
  }

  async stopHeartbeat(options: { timeoutMs?: number } = {}): Promise<void> {
    await this.heartbeat.stop(options);
  }

  /**
   * Stop accepting work: interrupt active runs, let finalizers that already committed a terminal
   * status finish untouched, and wait until `timeoutMs`. A later call waits for leftovers again.
   */
  async shutdown(options: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    const remaining = (): number => Math.max(0, deadline - Date.now());
    const pending = await this.mutex.runExclusive(async () => {
      const live = [...this.records.values()].filter((r) => r.taskIsLive());
      for (const record of live) {
        if (!record.isActive()) continue; // Already finalizing: await it, never cancel it.
        record.abortAction = "interrupt";
        record.raiseAbort("server shutting down");
        record.task?.cancel("server shutting down");
      }
      return live;
    });
    await this.stopHeartbeat({ timeoutMs: remaining() });
    if (pending.length === 0) return;
    const settledAll = Promise.all(pending.map((r) => r.task?.settled()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      settledAll,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, remaining());
      }),
    ]);
    clearTimeout(timer);
    for (const record of pending) {
      const settled = record.task?.isDone() ?? true;
      if ((!settled || record.task?.isCancelled()) && record.isActive()) {
        record.status = "interrupted";
        await Promise.race([
          this.persistStatus(record, "interrupted", { error: "server shut down" }),
          new Promise((resolve) => setTimeout(resolve, remaining()).unref()),
        ]);
      }
      if (!settled)
        this.logger.warn({ runId: record.runId }, "run still finalizing at shutdown deadline");
    }
  }
}
