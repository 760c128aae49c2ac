/**
 * Recovery of runs whose owner died: takeover of orphaned active runs, completion of unsealed
 * evidence, the backfill both share, and the scanner that runs them at start-up and periodically.
 */

import { SingleFlight } from "../../core/async/single-flight.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { RunEventStore } from "../../ports/run-event-store.js";
import type { RunStore } from "../../ports/run-store.js";
import { ORPHAN_RECOVERY_STOP_REASON, type RunRow } from "../../ports/run-types.js";
import type { ThreadStore } from "../../ports/thread-store.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";
import type { RunService } from "../run-service.js";
import { confirmTerminalEvent } from "../terminal-evidence.js";
import { settle } from "./terminal-commit.js";

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

export interface ReconcileOptions {
  error: string;
  before?: string;
  stopReason?: string | null;
}

/**
 * Take over runs whose owner stopped renewing its lease (past the grace): exactly one claim
 * wins per run; the winner marks it `error` and backfills its evidence. Returns the recovered
 * user-visible runs (internal operations are closed but not reported).
 */
export async function reconcileOrphanedInflightRuns(
  m: RunManager,
  options: ReconcileOptions,
): Promise<RunRecord[]> {
  const now = m.nowIso();
  let candidates: RunRow[];
  try {
    candidates = await m.store.listInflightWithExpiredLease({
      before: options.before ?? now,
      now,
      graceSeconds: m.ownership.graceSeconds,
    });
  } catch (error) {
    m.logger.error({ error: describeError(error) }, "orphan scan failed");
    return [];
  }
  const recovered: RunRecord[] = [];
  for (const row of candidates) {
    const local = m.getLocal(row.run_id);
    if (local && (local.isActive() || local.finalizing || local.taskIsLive())) continue;
    const stopReason = options.stopReason ?? ORPHAN_RECOVERY_STOP_REASON;
    let claimed = false;
    try {
      claimed = await m.store.claimForTakeover(row.run_id, {
        now: m.nowIso(),
        graceSeconds: m.ownership.graceSeconds,
        error: options.error,
        stopReason,
        workerId: m.workerId,
      });
    } catch (error) {
      m.logger.warn({ runId: row.run_id, error: describeError(error) }, "takeover claim failed");
    }
    if (!claimed) continue; // The owner renewed, or another reconciler won.
    const claimedRow: RunRow = {
      ...row,
      status: "error",
      error: options.error,
      stop_reason: stopReason,
    };
    if (row.operation_kind !== "run") continue;
    await publishRecovered(m, claimedRow);
    const record = local ?? m.observe(claimedRow);
    if (!record.ownershipLost && !record.storeOnly) {
      settle(record, "error", { error: options.error, stopReason });
    }
    recovered.push(record);
  }
  if (recovered.length > 0) {
    m.logger.warn({ runIds: recovered.map((r) => r.runId) }, "recovered orphaned runs");
  }
  return recovered;
}

/**
 * Finish the evidence of runs whose owner died after committing a terminal status but before
 * sealing: one claimer per run publishes the recovered `run.terminal` (stating the committed
 * status) and seals `partial`. The status itself never changes.
 */
export async function recoverUnsealedRuns(
  m: RunManager,
  options: { before?: string } = {},
): Promise<RunRecord[]> {
  if (!m.eventStore) return [];
  const now = m.nowIso();
  let candidates: RunRow[];
  try {
    candidates = await m.store.listUnsealedTerminalWithExpiredLease({
      before: options.before ?? now,
      now,
      graceSeconds: m.ownership.graceSeconds,
    });
  } catch (error) {
    m.logger.error({ error: describeError(error) }, "unsealed-run scan failed");
    return [];
  }
  const resealed: RunRecord[] = [];
  for (const row of candidates) {
    const local = m.getLocal(row.run_id);
    if (local && (local.finalizing || local.taskIsLive())) continue;
    const claimed = await m.store
      .claimUnsealedTerminal(row.run_id, {
        now: m.nowIso(),
        graceSeconds: m.ownership.graceSeconds,
        workerId: m.workerId,
        error: "Run owner stopped before sealing its evidence",
      })
      .catch(() => false);
    if (!claimed) continue;
    await publishRecovered(m, row);
    resealed.push(local ?? m.observe(row));
  }
  return resealed;
}

/** Backfill a claimed run's evidence with the manager's stores; never throws. */
export async function publishRecovered(m: RunManager, row: RunRow): Promise<void> {
  await publishRecoveredEvidence(
    {
      runs: m.store,
      events: m.eventStore,
      confirmTerminal: m.confirmTerminal,
      logger: m.logger,
      workerId: m.workerId,
    },
    row,
  ).catch((error: unknown) => {
    m.logger.error({ runId: row.run_id, error: describeError(error) }, "recovery evidence failed");
  });
}

export type RecoveryReason = "startup" | "periodic";

export interface RecoveryTally {
  /** Active runs whose owner died: now `error`, with recovered evidence. */
  takenOver: RunRecord[];
  /** Finished runs whose owner died before sealing: evidence completed, status unchanged. */
  resealed: RunRecord[];
}

/**
 * The default scan interval. A scan is one indexed query, so scanning every second is cheap and
 * bounds recovery latency (SIGKILL → recovered terminal) by lease + grace + 1 s.
 */
export const DEFAULT_RECOVERY_INTERVAL_MS = 1000;

/**
 * Recovers runs of dead processes: at start-up and periodically. Single-flight, so a slow store
 * never stacks scans; it runs on its own timer, so it never delays lease renewal or shutdown.
 */
export class OrphanRecovery {
  private readonly flight = new SingleFlight<string, RecoveryTally>();
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly service: RunService,
    private readonly threads: Pick<ThreadStore, "updateStatus"> | null,
  ) {}

  /** Scan periodically (only meaningful with leases, i.e. heartbeat enabled). */
  start(intervalMs = DEFAULT_RECOVERY_INTERVAL_MS): void {
    if (this.timer || !this.service.manager.heartbeatEnabled) return;
    this.timer = setInterval(() => {
      if (!this.stopped) void this.runOnce("periodic").catch(() => undefined);
    }, intervalMs);
    this.timer.unref();
  }

  async runOnce(reason: RecoveryReason): Promise<RecoveryTally> {
    return this.flight.run("scan", () => this.scan(reason));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async scan(reason: RecoveryReason): Promise<RecoveryTally> {
    const { manager, bridge } = this.service;
    const takenOver = await reconcileOrphanedInflightRuns(manager, {
      error: reason === "startup" ? STARTUP_ORPHAN_RECOVERY_ERROR : LEASE_ORPHAN_RECOVERY_ERROR,
      stopReason: ORPHAN_RECOVERY_STOP_REASON,
    });
    const resealed = await recoverUnsealedRuns(manager);
    for (const record of [...takenOver, ...resealed]) {
      // Subscribers of a dead producer would otherwise wait forever.
      // Fenced on this worker, which owns the run since its claim: the stream's writer is now us,
      // so the previous owner's late publishes are refused.
      const fence = { runId: record.runId, workerId: manager.workerId };
      await bridge.publishEnd(record.runId, { fence }).catch((error: unknown) => {
        manager.logger.warn(
          { runId: record.runId, error: describeError(error) },
          "could not end a recovered stream",
        );
      });
    }
    const threads = new Set(takenOver.map((r) => r.threadId));
    for (const threadId of threads) {
      await this.threads?.updateStatus(threadId, "error", manager.nowIso()).catch(() => false);
      await this.service.startNextQueued(threadId);
    }
    return { takenOver, resealed };
  }
}
