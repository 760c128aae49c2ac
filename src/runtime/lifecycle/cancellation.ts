import { describeError } from "../../core/errors.js";
import { type CancelAction, type CancelOutcome, isTerminalStatus } from "../../ports/run-types.js";
import type { RunManager } from "../run-manager.js";
import { publishRecovered } from "./recovery.js";
import { settle } from "./terminal-commit.js";

/**
 * Cancel a run. A local run is interrupted here (its finalizer stages the outcome of `action`);
 * with leases the cancel is also requested durably, so a completion racing it loses the CAS. A
 * run this process does not execute is cancelled through the store.
 */
export async function cancelRun(
  m: RunManager,
  runId: string,
  action: CancelAction,
): Promise<CancelOutcome> {
  const record = m.getLocal(runId);
  if (!record || record.storeOnly) return cancelNonLocal(m, runId, action);
  if (record.status === "interrupted") return "cancelled";
  if (isTerminalStatus(record.status) && !m.heartbeatEnabled) return "not_cancellable";
  let effective = action;
  let durableCancelWon = false;
  if (m.heartbeatEnabled && record.isActive()) {
    try {
      const winner = await m.store.requestCancel(runId, action, m.nowIso());
      if (winner) {
        effective = winner;
        durableCancelWon = true;
      }
    } catch (error) {
      m.logger.warn(
        { runId, error: describeError(error) },
        "durable cancel request failed; cancelling locally",
      );
    }
  }
  const outcome = await m.exclusive(async (): Promise<CancelOutcome | null> => {
    if (record.status === "interrupted" || record.aborted) return "cancelled";
    if (isTerminalStatus(record.status)) return durableCancelWon ? "cancelled" : "not_cancellable";
    record.abortAction = effective;
    record.raiseAbort(`cancelled by user (${effective})`);
    m.holdFinalizingWhileLive(record);
    if (record.status === "running") record.task?.cancel(`Run ${runId} cancelled (${effective})`);
    record.updatedAt = m.nowIso();
    settle(record, "interrupted");
    return null;
  });
  if (outcome) return outcome;
  const persisted = await m.persistStatus(record, "interrupted", { error: record.error });
  if (!persisted) {
    const row = await m.store.get(runId).catch(() => null);
    if (row?.status === "error") return "taken_over";
  }
  return "cancelled";
}

/** Cancel a run this process does not execute: request it durably, or take it over if orphaned. */
async function cancelNonLocal(
  m: RunManager,
  runId: string,
  action: CancelAction,
): Promise<CancelOutcome> {
  if (!m.heartbeatEnabled) return "not_active_locally";
  const row = await m.store.get(runId).catch(() => null);
  if (!row) return "unknown";
  if (row.status === "interrupted") return "requested";
  if (isTerminalStatus(row.status)) return "not_cancellable";
  if (m.leaseIsLive(row)) {
    const winner = await m.store.requestCancel(runId, action, m.nowIso()).catch(() => null);
    return winner ? "requested" : "unknown";
  }
  const claimed = await m.store.claimForTakeover(runId, {
    now: m.nowIso(),
    graceSeconds: m.ownership.graceSeconds,
    error: `Run reclaimed by ${m.workerId}: previous owner ${row.owner_worker_id ?? "unknown"} stopped renewing its lease`,
    stopReason: "orphan_recovered",
    workerId: m.workerId,
  });
  if (claimed) {
    await publishRecovered(m, { ...row, status: "error" });
    return "taken_over";
  }
  const after = await m.store.get(runId).catch(() => null);
  if (after?.status === "error") return "taken_over";
  if (after && isTerminalStatus(after.status)) return "not_cancellable";
  return "requested";
}
