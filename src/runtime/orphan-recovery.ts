import { SingleFlight } from "../core/async/single-flight.js";
import { describeError } from "../core/errors.js";
import { ORPHAN_RECOVERY_STOP_REASON } from "../ports/run-types.js";
import type { ThreadStore } from "../ports/thread-store.js";
import { LEASE_ORPHAN_RECOVERY_ERROR, STARTUP_ORPHAN_RECOVERY_ERROR } from "./recovery.js";
import type { RunRecord } from "./run-record.js";
import type { RunService } from "./run-service.js";

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
    const takenOver = await manager.reconcileOrphanedInflightRuns({
      error: reason === "startup" ? STARTUP_ORPHAN_RECOVERY_ERROR : LEASE_ORPHAN_RECOVERY_ERROR,
      stopReason: ORPHAN_RECOVERY_STOP_REASON,
    });
    const resealed = await manager.recoverUnsealedRuns();
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
