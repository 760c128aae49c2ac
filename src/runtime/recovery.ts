import { describeError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { RunEventStore } from "../ports/run-event-store.js";
import type { RunStore } from "../ports/run-store.js";
import type { RunRow } from "../ports/run-types.js";
import { confirmTerminalEvent } from "./terminal-evidence.js";

export type ConfirmTerminal = typeof confirmTerminalEvent;

export interface RecoveryPublisher {
  runs: RunStore;
  events: RunEventStore | null;
  /** Replaceable so tests can observe or break the terminal publication. */
  confirmTerminal?: ConfirmTerminal;
  logger: Logger;
  /** The claiming worker: recovery's writes are fenced on it owning the run. */
  workerId?: string;
}

export const RECOVERED_SEAL_ERROR =
  "Run was recovered after its owner stopped: evidence is partial";
export const STARTUP_ORPHAN_RECOVERY_ERROR =
  "Run was interrupted by a server restart and recovered at start-up";
export const LEASE_ORPHAN_RECOVERY_ERROR =
  "Run owner stopped renewing its lease; the run was recovered";

/**
 * Backfill the evidence of a run this worker just took over or whose unsealed evidence it claimed:
 * delivery receipt (an existing one is kept), then `run.terminal` stating the row's committed
 * status with `recovered: true`, then a `partial` seal. Every step is isolated — a failure is
 * logged and never changes the committed status — and every event write is fenced against the
 * run having been deleted meanwhile, so recovery cannot resurrect a thread.
 */
export async function publishRecoveredEvidence(
  publisher: RecoveryPublisher,
  row: RunRow,
): Promise<void> {
  const { runs, events, logger } = publisher;
  if (!events || row.operation_kind !== "run") return;
  const guard = async (): Promise<boolean> => (await runs.get(row.run_id)) !== null;
  const fenced = publisher.workerId
    ? { fence: { runId: row.run_id, workerId: publisher.workerId } }
    : {};
  // The row's committed status is the recovered terminal's status (`error` after a takeover).
  const status = row.status;
  const log = logger.child({ runId: row.run_id, threadId: row.thread_id });
  try {
    await events.putIfAbsent(
      {
        thread_id: row.thread_id,
        run_id: row.run_id,
        event_type: "run.delivery",
        category: "outputs",
        content: { presented: 0, paths: [], by_tool: {} },
        metadata: { recovered: true },
        user_id: row.user_id,
      },
      { guard, ...fenced },
    );
  } catch (error) {
    log.warn({ error: describeError(error) }, "recovery delivery receipt not written");
  }
  let sealError = RECOVERED_SEAL_ERROR;
  try {
    const confirm = publisher.confirmTerminal ?? confirmTerminalEvent;
    const outcome = await confirm(
      events,
      {
        threadId: row.thread_id,
        runId: row.run_id,
        status,
        userId: row.user_id,
        recovered: true,
      },
      { guard, ...fenced },
    );
    if (!outcome.confirmed) sealError = `${RECOVERED_SEAL_ERROR}; ${outcome.detail}`;
  } catch (error) {
    sealError = `${RECOVERED_SEAL_ERROR}; terminal publication failed: ${describeError(error)}`;
    log.error({ error: describeError(error) }, "recovery terminal publication failed");
  }
  try {
    await runs.updateEvidenceSeal(row.run_id, { state: "partial", error: sealError }, fenced);
  } catch (error) {
    log.warn({ error: describeError(error) }, "recovery evidence seal not written");
  }
}
