import { describeError, isOwnershipLostError, RunStartupError } from "../../core/errors.js";
import type { RunManager } from "../run-manager.js";
import { settle } from "./terminal-commit.js";

/**
 * Start an admitted run: `pending` → `running` through the store's CAS (fenced on the owner).
 * Refused when the run was cancelled or superseded first, or the store no longer lets it start.
 */
export async function startRun(m: RunManager, runId: string): Promise<"started" | "cancelled"> {
  const record = m.getLocal(runId);
  if (!record) throw new RunStartupError(`Run ${runId} is not known to this process.`);
  return record.startLock.runExclusive(async () => {
    if (record.aborted || record.phase.kind !== "pending") return "cancelled";
    let started: boolean;
    try {
      started = await m.store.startRun(runId, m.nowIso(), m.fenced(record));
    } catch (error) {
      if (isOwnershipLostError(error)) {
        m.markOwnershipLost(record, describeError(error));
        return "cancelled";
      }
      throw new RunStartupError(`Run ${runId} could not be started: ${describeError(error)}`, {
        cause: error,
      });
    }
    if (!started) {
      if (record.isActive()) settle(record, "interrupted");
      record.raiseAbort("start refused by the store");
      return "cancelled";
    }
    if (record.aborted || record.phase.kind !== "pending") {
      await m.persistStatus(record, record.status, { error: record.error });
      return "cancelled";
    }
    record.transition({ kind: "running" });
    record.updatedAt = m.nowIso();
    return "started";
  });
}
