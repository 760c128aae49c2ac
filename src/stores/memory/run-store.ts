import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ValidationError } from "../../core/errors.js";
import {
  assertKnownStrategy,
  planAdmission,
  runExistsError,
  supersededBy,
} from "../../ports/run-admission.js";
import { admittedRunRow, STATUS_UPDATE_SOURCES } from "../../ports/run-row.js";
import type {
  AdmissionOptions,
  AdmissionResult,
  EvidenceSeal,
  FinalizeResult,
  LeaseRenewal,
  ListRunsOptions,
  NewThreadOperation,
  OwnerScope,
  RunStore,
  StatusUpdate,
  TakeoverClaim,
} from "../../ports/run-store.js";
import {
  type CancelAction,
  isActiveStatus,
  isCancelAction,
  type RunCompletionData,
  type RunRow,
  type RunStatus,
} from "../../ports/run-types.js";
import {
  type FencedWrite,
  ownershipLost,
  type RunOwnership,
  type WriteFence,
} from "../../ports/write-fence.js";
import {
  applyCompletionData,
  completionAllowed,
  copyRow,
  holdsActiveSlot,
  isLeaseLive,
  isUnsealedTerminal,
  ownedBy,
  RunTable,
} from "./run-table.js";

export interface MemoryStoreOptions {
  /** Stamps `updated_at` for writes whose signature carries no `now`. */
  clock?: Clock;
}

/**
 * Run rows in a map. Every method reads and writes synchronously between its awaits, so each
 * guarded write is as atomic as the single conditional UPDATE of the SQL store.
 */
export class MemoryRunStore implements RunStore, RunOwnership {
  private readonly rows = new RunTable();
  private readonly clock: Clock;

  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async createThreadOperation(
    input: NewThreadOperation,
    options: AdmissionOptions,
  ): Promise<AdmissionResult> {
    assertKnownStrategy(options.strategy);
    if (input.idempotency_key != null) {
      const existing = this.rows.findByIdempotencyKey(input.idempotency_key);
      if (existing) return { kind: "idempotent_replay", row: copyRow(existing) };
    }
    if (this.rows.has(input.run_id)) throw runExistsError(input.run_id);
    const active = this.rows.threadRows(input.thread_id).filter((r) => isActiveStatus(r.status));
    const plan = planAdmission(active, options, (row) =>
      isLeaseLive(row, options.now, options.graceSeconds),
    );
    // A copy, so the caller's objects never alias stored state, made (and its metadata cloned,
    // which can throw) before any row changes: all-or-nothing.
    const row = copyRow(admittedRunRow(input, options, plan.queued));
    for (const superseded of plan.interrupt) Object.assign(superseded, supersededBy(options));
    this.rows.insert(row);
    return { kind: "admitted", row: copyRow(row), interrupted: plan.interrupt.map(copyRow) };
  }

  ownerOf(runId: string): string | null | undefined {
    const row = this.rows.get(runId);
    return row === undefined ? undefined : row.owner_worker_id;
  }

  /** A fenced write's check, in the same synchronous step as the write it guards. */
  private checkFence(fence: WriteFence | undefined, what: string): void {
    if (fence && this.ownerOf(fence.runId) !== fence.workerId) throw ownershipLost(fence, what);
  }

  async get(runId: string, scope: OwnerScope = {}): Promise<RunRow | null> {
    const row = this.rows.get(runId);
    return row && ownedBy(row, scope) ? copyRow(row) : null;
  }

  async getByIdempotencyKey(key: string): Promise<RunRow | null> {
    const row = this.rows.findByIdempotencyKey(key);
    return row ? copyRow(row) : null;
  }

  async listByThread(threadId: string, options: ListRunsOptions = {}): Promise<RunRow[]> {
    const offset = options.offset ?? 0;
    const limit = options.limit ?? 100;
    return this.rows
      .threadRows(threadId)
      .filter((row) => row.operation_kind === "run" && ownedBy(row, options))
      .filter((row) => options.status === undefined || row.status === options.status)
      .sort((a, b) => -this.rows.compareAge(a, b))
      .slice(offset, offset + limit)
      .map(copyRow);
  }

  async put(row: RunRow): Promise<void> {
    const existing = this.rows.get(row.run_id);
    const stored = copyRow(row);
    // A snapshot taken before a cancel request must not erase that request.
    if (existing?.cancel_action != null) {
      stored.cancel_action = existing.cancel_action;
      stored.cancel_requested_at = existing.cancel_requested_at;
    }
    if (existing) this.rows.replace(stored);
    else this.rows.insert(stored);
  }

  async updateStatus(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<boolean | null> {
    this.checkFence(update.fence, "update the status");
    const row = this.rows.get(runId);
    if (!row || !STATUS_UPDATE_SOURCES.includes(row.status)) return false;
    this.applyStatus(row, status, update);
    return true;
  }

  async startRun(runId: string, now: string, options: FencedWrite = {}): Promise<boolean> {
    this.checkFence(options.fence, "start");
    const row = this.rows.get(runId);
    if (row?.status !== "pending" || row.queued) return false;
    row.status = "running";
    row.updated_at = now;
    return true;
  }

  async finalizeIfNotCancelled(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<FinalizeResult> {
    this.checkFence(update.fence, "finalize");
    const row = this.rows.get(runId);
    if (!row || !isActiveStatus(row.status) || row.cancel_action !== null) {
      return { finalized: false, cancelAction: row?.cancel_action ?? null };
    }
    this.applyStatus(row, status, update);
    return { finalized: true, cancelAction: null };
  }

  async requestCancel(
    runId: string,
    action: CancelAction,
    now: string,
  ): Promise<CancelAction | null> {
    if (!isCancelAction(action)) {
      throw new ValidationError(
        `Invalid cancel action "${String(action)}"; use interrupt or rollback.`,
      );
    }
    const row = this.rows.get(runId);
    if (!row || !isActiveStatus(row.status)) return null;
    if (row.cancel_action === null) {
      row.cancel_action = action;
      row.cancel_requested_at = now;
      row.updated_at = now;
    }
    return row.cancel_action;
  }

  async renewLease(
    runId: string,
    ownerWorkerId: string,
    leaseExpiresAt: string,
  ): Promise<LeaseRenewal> {
    const row = this.rows.get(runId);
    if (!row || !isActiveStatus(row.status) || row.owner_worker_id !== ownerWorkerId) {
      return { renewed: false, cancelAction: row?.cancel_action ?? null };
    }
    row.lease_expires_at = leaseExpiresAt;
    row.updated_at = this.now();
    return { renewed: true, cancelAction: row.cancel_action };
  }

  async claimForTakeover(runId: string, claim: TakeoverClaim): Promise<boolean> {
    const row = this.rows.get(runId);
    if (!row || !holdsActiveSlot(row) || isLeaseLive(row, claim.now, claim.graceSeconds)) {
      return false;
    }
    row.status = "error";
    row.error = claim.error;
    if (claim.stopReason !== undefined) row.stop_reason = claim.stopReason;
    row.owner_worker_id = claim.workerId;
    row.updated_at = claim.now;
    return true;
  }

  async listInflightWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]> {
    return this.rows.expiredLeaseRows(holdsActiveSlot, options);
  }

  async listUnsealedTerminalWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]> {
    return this.rows.expiredLeaseRows(isUnsealedTerminal, options);
  }

  async claimUnsealedTerminal(
    runId: string,
    claim: { now: string; graceSeconds: number; workerId: string; error: string },
  ): Promise<boolean> {
    const row = this.rows.get(runId);
    if (!row || !isUnsealedTerminal(row) || isLeaseLive(row, claim.now, claim.graceSeconds))
      return false;
    row.evidence_seal_state = "partial";
    row.evidence_seal_error = claim.error;
    row.owner_worker_id = claim.workerId;
    row.updated_at = claim.now;
    return true;
  }

  async updateRunCompletion(
    runId: string,
    status: RunStatus,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<boolean> {
    this.checkFence(completion.fence, "record the completion");
    const row = this.rows.get(runId);
    if (!row || !completionAllowed(row.status, status)) return false;
    const { error, stopReason, fence: _fence, ...data } = completion;
    applyCompletionData(row, data);
    this.applyStatus(row, status, { error, stopReason });
    return true;
  }

  async updateRunProgress(
    runId: string,
    progress: Partial<RunCompletionData>,
    options: FencedWrite = {},
  ): Promise<void> {
    this.checkFence(options.fence, "record progress");
    const row = this.rows.get(runId);
    if (row?.status !== "running") return;
    applyCompletionData(row, progress);
    row.updated_at = this.now();
  }

  async updateModelName(
    runId: string,
    modelName: string,
    options: FencedWrite = {},
  ): Promise<void> {
    this.checkFence(options.fence, "record the model name");
    const row = this.rows.get(runId);
    if (!row) return;
    row.model_name = modelName;
    row.updated_at = this.now();
  }

  async updateEvidenceSeal(
    runId: string,
    seal: EvidenceSeal,
    options: FencedWrite = {},
  ): Promise<boolean> {
    this.checkFence(options.fence, "seal the evidence");
    const row = this.rows.get(runId);
    if (!row) return false;
    row.evidence_seal_state = seal.state;
    row.evidence_seal_error = seal.error ?? null;
    row.evidence_upper_seq = seal.upperSeq ?? null;
    row.evidence_event_count = seal.eventCount ?? null;
    row.updated_at = this.now();
    return true;
  }

  async promoteNextQueued(threadId: string): Promise<RunRow | null> {
    const rows = this.rows.threadRows(threadId);
    if (rows.some(holdsActiveSlot)) return null;
    const next = rows
      .filter((row) => row.queued && row.status === "pending")
      .sort((a, b) => this.rows.compareAge(a, b))[0];
    if (!next) return null;
    next.queued = false;
    next.updated_at = this.now();
    return copyRow(next);
  }

  async delete(runId: string, scope: OwnerScope = {}): Promise<boolean> {
    const row = this.rows.get(runId);
    if (!row || !ownedBy(row, scope)) return false;
    this.rows.remove(runId);
    return true;
  }

  async deleteByThread(threadId: string, scope: OwnerScope = {}): Promise<number> {
    const doomed = this.rows.threadRows(threadId).filter((row) => ownedBy(row, scope));
    for (const row of doomed) this.rows.remove(row.run_id);
    return doomed.length;
  }

  async close(): Promise<void> {}

  private applyStatus(row: RunRow, status: RunStatus, update: StatusUpdate): void {
    row.status = status;
    if (update.error !== undefined) row.error = update.error;
    if (update.stopReason !== undefined) row.stop_reason = update.stopReason;
    // Only a waiting `pending` row is queued; any other status has left the queue.
    if (status !== "pending") row.queued = false;
    row.updated_at = this.now();
  }

  private now(): string {
    return isoNow(this.clock);
  }
}
