import { Mutex } from "../core/async/mutex.js";
import { type Clock, systemClock } from "../core/clock.js";
import { describeError } from "../core/errors.js";
import { newWorkerId } from "../core/ids.js";
import { type Logger, rootLogger } from "../core/logger.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { RunObserver } from "../ports/run-metrics.js";
import type { RunStore, StatusUpdate } from "../ports/run-store.js";
import type {
  CancelAction,
  CancelOutcome,
  RunCompletionData,
  RunRow,
  RunStatus,
} from "../ports/run-types.js";
import type { FencedWrite, WriteFence } from "../ports/write-fence.js";
import {
  admitRun,
  markPromoted,
  promoteNextQueued,
  type RunRequest,
} from "./lifecycle/admission.js";
import { cancelRun } from "./lifecycle/cancellation.js";
import {
  LeaseHeartbeat,
  type OwnershipConfig,
  resolveOwnershipConfig,
} from "./lifecycle/lease-heartbeat.js";
import {
  type ConfirmTerminal,
  type ReconcileOptions,
  reconcileOrphanedInflightRuns,
  recoverUnsealedRuns,
} from "./lifecycle/recovery.js";
import type { TerminalStatus } from "./lifecycle/run-phase.js";
import { awaitLocalRuns, handOffRuns, shutdownRuns } from "./lifecycle/shutdown.js";
import { startRun } from "./lifecycle/start.js";
import {
  fence,
  hasFinalTerminalAck,
  persistCurrentStatus,
  persistStatus,
  type SetStatusOptions,
  setStatus,
  setStatusIfNotCancelled,
  updateRunCompletion,
} from "./lifecycle/terminal-commit.js";
import { RunRecord } from "./run-record.js";

export interface RunManagerOptions {
  store: RunStore;
  /** Used to backfill evidence for runs this manager recovers (the worker uses its own). */
  eventStore?: RunEventStore | null;
  /** Replaceable terminal publisher for recovery (tests break or observe it). */
  confirmTerminal?: ConfirmTerminal;
  workerId?: string;
  ownership?: Partial<OwnershipConfig> | null;
  clock?: Clock;
  logger?: Logger;
  /** Told about each run's lifecycle (metrics); absent: nobody is. */
  observer?: RunObserver | null;
}

/**
 * The runs this process owns: their local records, the admission mutex and the finalizing
 * barrier between runs of one thread. The run store is the cross-process source of truth. Each
 * step of a run's lifecycle lives in `lifecycle/` (admission, terminal commit, cancellation,
 * recovery, shutdown); the methods here are its entry points.
 */
export class RunManager {
  readonly store: RunStore;
  readonly eventStore: RunEventStore | null;
  confirmTerminal: ConfirmTerminal | undefined;
  readonly workerId: string;
  readonly ownership: OwnershipConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly heartbeat: LeaseHeartbeat;
  readonly observer: RunObserver | null;
  private closing = false;
  private admissionClosed = false;
  private readonly records = new Map<string, RunRecord>();
  private readonly mutex = new Mutex();
  private finalizingWaiters: Array<() => void> = [];

  constructor(options: RunManagerOptions) {
    this.store = options.store;
    this.eventStore = options.eventStore ?? null;
    this.confirmTerminal = options.confirmTerminal;
    this.workerId = options.workerId ?? newWorkerId();
    this.ownership = resolveOwnershipConfig(options.ownership);
    this.clock = options.clock ?? systemClock;
    this.logger = (options.logger ?? rootLogger).child({ component: "run-manager" });
    this.heartbeat = new LeaseHeartbeat(this);
    this.observer = options.observer ?? null;
  }

  /** True once a drain or `shutdown` began: the process should get no new work. */
  get draining(): boolean {
    return this.closing || this.admissionClosed;
  }

  /** True once `beginDrain` ran: admission refuses new runs with `server_draining`. */
  get refusesAdmission(): boolean {
    return this.admissionClosed;
  }

  /**
   * The fence of every durable write this process makes for a run it executes: the owner the run
   * row named when the run was admitted or promoted.
   */
  writeFence(record: RunRecord): WriteFence | undefined {
    if (record.ownerWorkerId === null) return undefined;
    return { runId: record.runId, workerId: record.ownerWorkerId };
  }

  fenced(record: RunRecord): FencedWrite {
    const fence = this.writeFence(record);
    return fence ? { fence } : {};
  }

  get heartbeatEnabled(): boolean {
    return this.ownership.heartbeatEnabled;
  }

  nowIso(): string {
    return this.clock.now().toISOString();
  }

  /** Run `work` under the admission mutex (admission, cancellation and shutdown decisions). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(work);
  }

  /** Track a record this process executes. */
  register(record: RunRecord): void {
    this.records.set(record.runId, record);
  }

  /** A read-only record of a row this process does not execute. */
  observe(row: RunRow): RunRecord {
    return new RunRecord(row, { observed: true });
  }

  // ---- admission --------------------------------------------------------------------------

  /** Admit a run on a thread under its multitask strategy; see docs/ARCHITECTURE.md "Admission". */
  createOrReject(threadId: string, request: RunRequest = {}): Promise<RunRecord> {
    return admitRun(this, threadId, request);
  }

  /** A queued run became the thread's active run (after `promoteNextQueued`). */
  markPromoted(row: RunRow): RunRecord {
    return markPromoted(this, row);
  }

  /** Make the thread's oldest queued run its active run, if the thread is free. */
  promoteNextQueued(threadId: string): Promise<RunRecord | null> {
    return promoteNextQueued(this, threadId);
  }

  /** This thread's local runs that are active or still finalizing. */
  localInflight(threadId: string): RunRecord[] {
    return [...this.records.values()].filter(
      (r) => r.threadId === threadId && (r.isActive() || r.finalizing),
    );
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
    try {
      const row = await this.store.get(runId, scope);
      return this.records.get(runId) ?? (row ? this.observe(row) : null);
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

  /** Move an admitted run to `running` (the store's CAS), unless it was cancelled first. */
  tryStart(runId: string): Promise<"started" | "cancelled"> {
    return startRun(this, runId);
  }

  // ---- terminal commit (lifecycle/terminal-commit.ts) -------------------------------------

  /** Stage (`persist: false`) or commit a terminal status. */
  setStatus(runId: string, status: TerminalStatus, options: SetStatusOptions = {}): Promise<void> {
    return setStatus(this, runId, status, options);
  }

  /** Commit whatever outcome the record has staged. */
  persistCurrentStatus(runId: string): Promise<boolean> {
    return persistCurrentStatus(this, runId);
  }

  /** Commit a completion unless a durable cancel request won first; returns the winning cancel. */
  setStatusIfNotCancelled(
    runId: string,
    status: TerminalStatus,
    options: SetStatusOptions = {},
  ): Promise<CancelAction | null> {
    return setStatusIfNotCancelled(this, runId, status, options);
  }

  /** Best-effort durable status write; records the proof when it is attributably ours. */
  persistStatus(record: RunRecord, status: RunStatus, update: StatusUpdate = {}): Promise<boolean> {
    return persistStatus(this, record, status, update);
  }

  updateRunCompletion(
    runId: string,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<void> {
    if (completion.token_usage_by_model)
      this.observer?.tokenUsage?.(completion.token_usage_by_model);
    return updateRunCompletion(this, runId, completion);
  }

  /** Final status with an attributable commit ACK, no staged or pending work, not fenced. */
  hasFinalTerminalAck(record: RunRecord): boolean {
    return hasFinalTerminalAck(record);
  }

  /** The status a `run.terminal` event may state, or null when it is not provably committed. */
  terminalEventStatus(record: RunRecord): RunStatus | null {
    return hasFinalTerminalAck(record) ? record.status : null;
  }

  /** Fence a run locally: no further durable writes from this worker. Never writes the store. */
  markOwnershipLost(record: RunRecord, reason: string): void {
    fence(this, record, reason);
  }

  // ---- the finalizing barrier between runs of one thread ---------------------------------

  setFinalizing(runId: string, finalizing: boolean): void {
    const record = this.records.get(runId);
    if (!record) return;
    record.finalizing = finalizing;
    if (!finalizing) this.notifyFinalizingChanged();
  }

  /** A cancelled or superseded run blocks its thread until its live task has finalized. */
  holdFinalizingWhileLive(record: RunRecord): void {
    record.finalizing = record.taskIsLive();
  }

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

  // ---- cancellation and recovery ----------------------------------------------------------

  cancel(runId: string, options: { action?: CancelAction } = {}): Promise<CancelOutcome> {
    return cancelRun(this, runId, options.action ?? "interrupt");
  }

  /** Take over runs whose owner stopped renewing its lease; returns the recovered user runs. */
  async reconcileOrphanedInflightRuns(options: ReconcileOptions): Promise<RunRecord[]> {
    const recovered = await reconcileOrphanedInflightRuns(this, options);
    if (recovered.length > 0) this.observer?.runsRecovered?.("orphaned", recovered.length);
    return recovered;
  }

  /** Finish the evidence of terminal runs whose owner died before sealing it. */
  async recoverUnsealedRuns(options: { before?: string } = {}): Promise<RunRecord[]> {
    const sealed = await recoverUnsealedRuns(this, options);
    if (sealed.length > 0) this.observer?.runsRecovered?.("unsealed", sealed.length);
    return sealed;
  }

  leaseIsLive(row: Pick<RunRow, "lease_expires_at">): boolean {
    if (!row.lease_expires_at) return false;
    const deadline = new Date(row.lease_expires_at).getTime();
    if (Number.isNaN(deadline)) return false;
    return deadline >= this.clock.now().getTime() - this.ownership.graceSeconds * 1000;
  }

  // ---- heartbeat and shutdown -------------------------------------------------------------

  startHeartbeat(): void {
    this.heartbeat.start();
  }

  async stopHeartbeat(options: { timeoutMs?: number } = {}): Promise<void> {
    await this.heartbeat.stop(options);
  }

  /** Refuse new admissions from now on (`server_draining`); local runs go on. */
  beginDrain(): void {
    this.admissionClosed = true;
  }

  /** Wait until `timeoutMs` for local runs to end on their own; returns how many did. */
  awaitLocalRuns(timeoutMs: number): Promise<number> {
    return awaitLocalRuns(this, timeoutMs);
  }

  /** Release the leases of still-active local runs for peers to take over (their ids). */
  handOffRuns(): Promise<string[]> {
    return handOffRuns(this);
  }

  /** Stop accepting work and wait for local runs until `timeoutMs` (lifecycle/shutdown.ts). */
  shutdown(options: { timeoutMs?: number } = {}): Promise<void> {
    this.closing = true;
    return shutdownRuns(this, options);
  }
}
