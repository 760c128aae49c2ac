import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ConflictError, UnsupportedStrategyError, ValidationError } from "../../core/errors.js";
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
  MULTITASK_STRATEGIES,
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
import { newRunRow } from "../../runtime/run-record.js";

const CANCELLED_BY_NEWER_RUN = "Cancelled by newer run";
const MAX_CONVENIENCE_MESSAGE_CHARS = 2000;
/** Sources `updateStatus` may move a row from: terminal rows other than `interrupted` are frozen. */
const UPDATABLE_STATUSES: readonly RunStatus[] = ["pending", "running", "interrupted"];

export interface MemoryStoreOptions {
  /** Stamps `updated_at` for writes whose signature carries no `now`. */
  clock?: Clock;
}

/**
 * Run rows in a map. Every method reads and writes synchronously between its awaits, so each
 * guarded write is as atomic as the single conditional UPDATE of the SQL store.
 */
export class MemoryRunStore implements RunStore, RunOwnership {
  private readonly rows = new Map<string, RunRow>();
  /** Insertion order breaks ties between rows created in the same millisecond. */
  private readonly insertionOrder = new Map<string, number>();
  private nextInsertion = 0;
  private readonly clock: Clock;

  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async createThreadOperation(
    input: NewThreadOperation,
    options: AdmissionOptions,
  ): Promise<AdmissionResult> {
    if (!MULTITASK_STRATEGIES.includes(options.strategy)) {
      throw new UnsupportedStrategyError(String(options.strategy));
    }
    if (input.idempotency_key != null) {
      const existing = this.findByIdempotencyKey(input.idempotency_key);
      if (existing) return { kind: "idempotent_replay", row: copyRow(existing) };
    }
    if (this.rows.has(input.run_id)) {
      throw new ConflictError(`Run ${input.run_id} already exists.`);
    }
    const slotHolders = this.threadRows(input.thread_id).filter(holdsActiveSlot);
    let queued = false;
    let toInterrupt: RunRow[] = [];
    switch (options.strategy) {
      case "reject":
        if (slotHolders.length > 0) throw busyThread(input.thread_id);
        break;
      case "enqueue":
        // Waiting rows count as busy too, so an enqueued run never overtakes an earlier one.
        queued = slotHolders.length > 0 || this.threadRows(input.thread_id).some((r) => r.queued);
        break;
      case "interrupt":
      case "rollback":
        assertInterruptible(slotHolders, options);
        // The newer run supersedes waiting runs too: they would otherwise start after it.
        toInterrupt = this.threadRows(input.thread_id).filter((r) => isActiveStatus(r.status));
        break;
    }
    // Built (and its metadata copied, which can throw) before any row changes: all-or-nothing.
    const row = newRow(input, options, queued);
    for (const active of toInterrupt) {
      active.status = "interrupted";
      active.error = CANCELLED_BY_NEWER_RUN;
      active.owner_worker_id = options.workerId;
      active.updated_at = options.now;
    }
    this.insert(row);
    return { kind: "admitted", row: copyRow(row), interrupted: toInterrupt.map(copyRow) };
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
    const row = this.findByIdempotencyKey(key);
    return row ? copyRow(row) : null;
  }

  async listByThread(threadId: string, options: ListRunsOptions = {}): Promise<RunRow[]> {
    const offset = options.offset ?? 0;
    const limit = options.limit ?? 100;
    return this.threadRows(threadId)
      .filter((row) => row.operation_kind === "run" && ownedBy(row, options))
      .filter((row) => options.status === undefined || row.status === options.status)
      .sort((a, b) => -this.compareAge(a, b))
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
    if (existing) this.rows.set(row.run_id, stored);
    else this.insert(stored);
  }

  async updateStatus(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<boolean | null> {
    this.checkFence(update.fence, "update the status");
    const row = this.rows.get(runId);
    if (!row || !UPDATABLE_STATUSES.includes(row.status)) return false;
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
    const before = parseUtc(options.before) ?? Number.NEGATIVE_INFINITY;
    return [...this.rows.values()]
      .filter(holdsActiveSlot)
      .filter((row) => (parseUtc(row.created_at) ?? Number.POSITIVE_INFINITY) <= before)
      .filter((row) => !isLeaseLive(row, options.now, options.graceSeconds))
      .sort((a, b) => this.compareAge(a, b))
      .map(copyRow);
  }

  async listUnsealedTerminalWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]> {
    const before = parseUtc(options.before) ?? Number.NEGATIVE_INFINITY;
    return [...this.rows.values()]
      .filter(isUnsealedTerminal)
      .filter((row) => (parseUtc(row.created_at) ?? Number.POSITIVE_INFINITY) <= before)
      .filter((row) => !isLeaseLive(row, options.now, options.graceSeconds))
      .sort((a, b) => this.compareAge(a, b))
      .map(copyRow);
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
    const rows = this.threadRows(threadId);
    if (rows.some(holdsActiveSlot)) return null;
    const next = rows
      .filter((row) => row.queued && row.status === "pending")
      .sort((a, b) => this.compareAge(a, b))[0];
    if (!next) return null;
    next.queued = false;
    next.updated_at = this.now();
    return copyRow(next);
  }

  async delete(runId: string, scope: OwnerScope = {}): Promise<boolean> {
    const row = this.rows.get(runId);
    if (!row || !ownedBy(row, scope)) return false;
    this.remove(runId);
    return true;
  }

  async deleteByThread(threadId: string, scope: OwnerScope = {}): Promise<number> {
    const doomed = this.threadRows(threadId).filter((row) => ownedBy(row, scope));
    for (const row of doomed) this.remove(row.run_id);
    return doomed.length;
  }

  async close(): Promise<void> {}

  private insert(row: RunRow): void {
    this.rows.set(row.run_id, row);
    this.insertionOrder.set(row.run_id, this.nextInsertion++);
  }

  private remove(runId: string): void {
    this.rows.delete(runId);
    this.insertionOrder.delete(runId);
  }

  private threadRows(threadId: string): RunRow[] {
    return [...this.rows.values()].filter((row) => row.thread_id === threadId);
  }

  private findByIdempotencyKey(key: string): RunRow | undefined {
    for (const row of this.rows.values()) if (row.idempotency_key === key) return row;
    return undefined;
  }

  /** Older first: by `created_at`, then by insertion. */
  private compareAge(a: RunRow, b: RunRow): number {
    const byTime = (parseUtc(a.created_at) ?? 0) - (parseUtc(b.created_at) ?? 0);
    if (byTime !== 0) return byTime;
    return (this.insertionOrder.get(a.run_id) ?? 0) - (this.insertionOrder.get(b.run_id) ?? 0);
  }

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

function newRow(input: NewThreadOperation, options: AdmissionOptions, queued: boolean): RunRow {
  // Copies, so the caller's objects never alias stored state (they may also throw: all-or-nothing).
  return newRunRow(input, {
    multitask_strategy: input.multitask_strategy ?? options.strategy,
    metadata: structuredClone(input.metadata ?? {}),
    kwargs: structuredClone(input.kwargs ?? {}),
    queued,
  });
}

/** interrupt/rollback may not touch a peer's live run, nor any unexpired internal reservation. */
function assertInterruptible(active: RunRow[], options: AdmissionOptions): void {
  for (const row of active) {
    const live = isLeaseLive(row, options.now, options.graceSeconds);
    if (live && row.owner_worker_id !== options.workerId) {
      throw new ConflictError(
        `Run ${row.run_id} on thread ${row.thread_id} is owned by a live worker; retry later.`,
      );
    }
    if (row.operation_kind !== "run" && (live || row.lease_expires_at === null)) {
      throw new ConflictError(
        `Thread ${row.thread_id} has an active ${row.operation_kind} operation; retry later.`,
      );
    }
  }
}

function busyThread(threadId: string): ConflictError {
  return new ConflictError(
    `Thread ${threadId} already has an active run; wait for it or use multitask_strategy interrupt.`,
  );
}

function holdsActiveSlot(row: RunRow): boolean {
  return isActiveStatus(row.status) && !row.queued;
}

function ownedBy(row: RunRow, scope: OwnerScope): boolean {
  return scope.userId == null || row.user_id === scope.userId;
}

function completionAllowed(from: RunStatus, to: RunStatus): boolean {
  return isActiveStatus(from) || from === to || (from === "interrupted" && to === "error");
}

function applyCompletionData(row: RunRow, data: Partial<RunCompletionData>): void {
  const { first_human_message, last_ai_message, token_usage_by_model, ...counters } = data;
  for (const [key, value] of Object.entries(counters)) {
    if (typeof value === "number") Object.assign(row, { [key]: value });
  }
  if (token_usage_by_model !== undefined)
    row.token_usage_by_model = structuredClone(token_usage_by_model);
  if (first_human_message !== undefined) row.first_human_message = truncate(first_human_message);
  if (last_ai_message !== undefined) row.last_ai_message = truncate(last_ai_message);
}

/** Cuts by code points (not UTF-16 units) so a surrogate pair is never split. */
function truncate(text: string | null): string | null {
  if (text === null || text.length <= MAX_CONVENIENCE_MESSAGE_CHARS) return text;
  return Array.from(text).slice(0, MAX_CONVENIENCE_MESSAGE_CHARS).join("");
}

/** A lease is live while `lease_expires_at >= now - grace`; NULL or unparseable is expired. */
function isLeaseLive(row: RunRow, now: string, graceSeconds: number): boolean {
  const lease = row.lease_expires_at === null ? null : parseUtc(row.lease_expires_at);
  const reference = parseUtc(now);
  if (lease === null || reference === null) return false;
  return lease >= reference - graceSeconds * 1000;
}

const NAIVE_DATETIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;

/** Milliseconds since the epoch; timestamps without a zone are UTC, as in the SQL stores. */
function parseUtc(value: string): number | null {
  const text = NAIVE_DATETIME.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function copyRow(row: RunRow): RunRow {
  return structuredClone(row);
}

/** A finished user-visible run whose evidence was never sealed. */
function isUnsealedTerminal(row: RunRow): boolean {
  return (
    row.operation_kind === "run" &&
    !isActiveStatus(row.status) &&
    row.evidence_seal_state === "pending"
  );
}
