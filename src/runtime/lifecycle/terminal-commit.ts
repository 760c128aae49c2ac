import { describeError, isOwnershipLostError } from "../../core/errors.js";
import type { StatusUpdate } from "../../ports/run-store.js";
import type { CancelAction, RunCompletionData, RunStatus } from "../../ports/run-types.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";
import { isTerminal, type TerminalStatus } from "./run-phase.js";

/**
 * The terminal-commit protocol: a worker stages its outcome, commits it with a fenced write, and
 * may publish `run.terminal` only once the store attributably acknowledged that exact status.
 * Every function here moves a record's phase through `RunRecord.transition()`.
 */

export interface SetStatusOptions extends StatusUpdate {
  /** `false` stages the outcome locally; the finalizer commits it. */
  persist?: boolean;
}

function applyUpdate(record: RunRecord, update: StatusUpdate): void {
  if (update.error !== undefined) record.error = update.error;
  if (update.stopReason !== undefined) record.stopReason = update.stopReason;
}

/** Decide a terminal outcome locally without committing it. */
export function stage(record: RunRecord, outcome: TerminalStatus, update: StatusUpdate = {}): void {
  record.transition({
    kind: "staged",
    outcome,
    proof: record.terminalCommitProof,
    restoring: false,
  });
  applyUpdate(record, update);
}

/** Apply a terminal status locally (its durable write is the caller's next step). */
export function settle(record: RunRecord, status: TerminalStatus, update: StatusUpdate = {}): void {
  record.transition({ kind: "settled", status, proof: record.terminalCommitProof });
  applyUpdate(record, update);
}

/** The staged outcome will not be committed (any more): it stands as the settled status. */
export function endStaging(record: RunRecord): void {
  const phase = record.phase;
  if (phase.kind === "staged") {
    record.transition({ kind: "settled", status: phase.outcome, proof: phase.proof });
  }
}

/** Mark a staged rollback as restoring the pre-run checkpoint (or done restoring). */
export function setRestoring(record: RunRecord, restoring: boolean): void {
  const phase = record.phase;
  if (phase.kind === "staged") record.transition({ ...phase, restoring });
}

/** The store attributably acknowledged `status` for this manager. */
function acknowledge(record: RunRecord, status: TerminalStatus): void {
  const phase = record.phase;
  if (phase.kind === "staged" || phase.kind === "settled") {
    record.transition({ ...phase, proof: { status } });
  }
}

/** Fence a run locally: no further durable writes from this worker. Never writes the store. */
export function fence(m: RunManager, record: RunRecord, reason: string): void {
  if (record.phase.kind === "fenced" || record.phase.kind === "observed") return;
  record.transition({ kind: "fenced", reason, proof: record.terminalCommitProof });
  record.raiseAbort(reason);
  record.error = reason;
  m.logger.warn({ runId: record.runId, reason }, "run fenced: ownership lost");
  if (record.task && record.task.name !== `run-finalization-${record.runId}`) {
    record.task.cancel(reason);
  }
}

/** Final status with an attributable commit ACK, no staged or pending work, not fenced. */
export function hasFinalTerminalAck(record: RunRecord): boolean {
  const phase = record.phase;
  return phase.kind === "settled" && phase.proof?.status === phase.status;
}

/** A success that could not be durably confirmed must not be trusted by a leased worker. */
function fenceUnconfirmedSuccess(m: RunManager, record: RunRecord, status: RunStatus): void {
  if (m.heartbeatEnabled && status === "success" && !record.ownershipLost) {
    fence(m, record, "success could not be durably confirmed");
  }
}

export async function setStatus(
  m: RunManager,
  runId: string,
  status: TerminalStatus,
  options: SetStatusOptions = {},
): Promise<void> {
  const record = m.getLocal(runId);
  if (!record || record.ownershipLost) return;
  record.updatedAt = m.nowIso();
  if (options.persist === false) {
    stage(record, status, options);
    return;
  }
  settle(record, status, options);
  const persisted = await persistStatus(m, record, status, options);
  if (!persisted) fenceUnconfirmedSuccess(m, record, status);
}

/** Persist whatever status the record has; a staged outcome ends staged either way. */
export async function persistCurrentStatus(m: RunManager, runId: string): Promise<boolean> {
  const record = m.getLocal(runId);
  if (!record) return false;
  try {
    if (record.ownershipLost) return false;
    const persisted = await persistStatus(m, record, record.status, {
      error: record.error,
      stopReason: record.stopReason,
    });
    if (!persisted) fenceUnconfirmedSuccess(m, record, record.status);
    return persisted;
  } finally {
    endStaging(record);
  }
}

/**
 * Commit a completion unless a durable cancel request won first (CAS with heartbeat + store).
 * Returns the winning cancel action, or null when the status was applied.
 */
export async function setStatusIfNotCancelled(
  m: RunManager,
  runId: string,
  status: TerminalStatus,
  options: SetStatusOptions = {},
): Promise<CancelAction | null> {
  const record = m.getLocal(runId);
  if (!record || record.ownershipLost) return null;
  if (!m.heartbeatEnabled || options.persist === false) {
    await setStatus(m, runId, status, options);
    return null;
  }
  let result: { finalized: boolean; cancelAction: CancelAction | null };
  try {
    result = await m.store.finalizeIfNotCancelled(runId, status, {
      ...options,
      ...m.fenced(record),
    });
  } catch (error) {
    fence(m, record, `completion could not be confirmed: ${describeError(error)}`);
    return null;
  }
  if (!result.finalized && result.cancelAction) {
    record.abortAction = result.cancelAction;
    record.raiseAbort(`cancel requested: ${result.cancelAction}`);
    return result.cancelAction;
  }
  if (result.finalized) {
    // Fenced meanwhile (a lapsed lease): the commit is not this worker's to claim.
    if (record.ownershipLost) return null;
    record.updatedAt = m.nowIso();
    settle(record, status, options);
    acknowledge(record, status);
    return null;
  }
  await setStatus(m, runId, status, options);
  return null;
}

/**
 * Best-effort durable status write. Records a terminal-commit proof only when the write was
 * attributably acknowledged to this manager.
 */
export async function persistStatus(
  m: RunManager,
  record: RunRecord,
  status: RunStatus,
  update: StatusUpdate = {},
): Promise<boolean> {
  if (record.ownershipLost) return false;
  const ack = (): void => {
    if (isTerminal(status)) acknowledge(record, status);
  };
  try {
    const changed = await fencedStatusWrite(m, record, status, update);
    if (changed === true) {
      ack();
      return true;
    }
    if (changed === null) return true; // Persisted as far as the store can tell, but not attributable.
    if (record.ownershipLost) return false;
    const row = await m.store.get(record.runId);
    if (!row) {
      await m.store.put({
        ...record.toRow(),
        status,
        error: record.error,
        stop_reason: record.stopReason,
      });
      ack();
      return true;
    }
    if (row.status === status) return true;
    if (row.status === "error" && m.heartbeatEnabled && !record.storeOnly) {
      fence(m, record, `run was taken over: ${row.error ?? "peer takeover"}`);
    }
    return false;
  } catch (error) {
    m.logger.warn(
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
async function fencedStatusWrite(
  m: RunManager,
  record: RunRecord,
  status: RunStatus,
  update: StatusUpdate,
): Promise<boolean | null> {
  try {
    return await m.store.updateStatus(record.runId, status, { ...update, ...m.fenced(record) });
  } catch (error) {
    if (!isOwnershipLostError(error)) throw error;
    if ((await m.store.get(record.runId)) !== null) {
      fence(m, record, describeError(error));
    }
    return false;
  }
}

export async function updateRunCompletion(
  m: RunManager,
  runId: string,
  completion: Partial<RunCompletionData> & StatusUpdate,
): Promise<void> {
  const record = m.getLocal(runId);
  if (!record || record.ownershipLost) return;
  try {
    const ok = await m.store.updateRunCompletion(runId, record.status, {
      ...completion,
      ...m.fenced(record),
    });
    if (!ok) {
      const row = await m.store.get(runId);
      if (row?.status === "error" && row.status !== record.status && m.heartbeatEnabled) {
        fence(m, record, "run was taken over before completion was recorded");
      }
    }
  } catch (error) {
    if (isOwnershipLostError(error)) fence(m, record, describeError(error));
    else m.logger.warn({ runId, error: describeError(error) }, "completion write failed");
  }
}
