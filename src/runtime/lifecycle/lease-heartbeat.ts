import { runUrgent } from "../../core/async/urgency.js";
import { addSeconds } from "../../core/clock.js";
import { describeError } from "../../core/errors.js";
import type { CancelAction } from "../../ports/run-types.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";

export interface OwnershipConfig {
  /** How long a renewed lease is valid (≥ 5 s). */
  leaseSeconds: number;
  /** How long past expiry a lease is still honoured before peers may take the run over. */
  graceSeconds: number;
  heartbeatEnabled: boolean;
}

export function resolveOwnershipConfig(
  config: Partial<OwnershipConfig> | null | undefined,
): OwnershipConfig {
  if (!config) return { leaseSeconds: 30, graceSeconds: 10, heartbeatEnabled: false };
  return {
    leaseSeconds: Math.max(5, config.leaseSeconds ?? 30),
    graceSeconds: Math.max(0, config.graceSeconds ?? 10),
    heartbeatEnabled: config.heartbeatEnabled ?? true,
  };
}

/**
 * Renews the leases of the runs this process owns every `lease/3` seconds, fences runs whose
 * lease could not be confirmed in time, and delivers durable cancel requests to local runs.
 */
export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | null = null;
  private cycle: Promise<void> | null = null;

  constructor(private readonly manager: RunManager) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (!this.manager.heartbeatEnabled || this.timer) return;
    const intervalMs = Math.max(1, Math.floor(this.manager.ownership.leaseSeconds / 3)) * 1000;
    this.timer = setInterval(() => {
      if (this.cycle) return; // A slow store must not stack cycles.
      this.cycle = this.renewLeases()
        .catch((error: unknown) => {
          this.manager.logger.error(
            { error: describeError(error) },
            "lease heartbeat cycle failed",
          );
        })
        .finally(() => {
          this.cycle = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const inFlight = this.cycle;
    if (!inFlight) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      inFlight,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs ?? 5000);
      }),
    ]);
    clearTimeout(timer);
  }

  /**
   * One renewal pass over every live local run this worker owns. Public so tests drive it.
   * Renewals go out together and urgently: a lease renewed late is a run lost, so on a store busy
   * with background writes (one SQLite connection under hundreds of streaming runs) they must
   * not wait behind checkpoints and journal batches, nor behind each other.
   */
  async renewLeases(): Promise<void> {
    const { manager } = this;
    const cancels: Array<{ runId: string; action: CancelAction }> = [];
    const renewals: Promise<void>[] = [];
    for (const record of manager.localRecords()) {
      if (!record.isActive() || record.ownershipLost || record.storeOnly) continue;
      if (record.ownerWorkerId !== manager.workerId) continue;
      if (record.task?.isDone()) continue;
      renewals.push(
        this.renewOne(record).then((action) => {
          if (action) cancels.push({ runId: record.runId, action });
        }),
      );
    }
    await Promise.all(renewals);
    for (const { runId, action } of cancels) {
      const record = manager.getLocal(runId);
      if (!record || record.aborted) continue;
      record.abortAction = action;
      record.raiseAbort(`cancel requested: ${action}`);
      record.task?.cancel(`Run ${runId} cancelled (${action})`);
    }
  }

  /** Renews one run's lease; answers the durable cancel request the renewal read, if any. */
  private async renewOne(record: RunRecord): Promise<CancelAction | null> {
    const { manager } = this;
    const now = manager.clock.now();
    const confirmed = record.leaseExpiresAt
      ? new Date(record.leaseExpiresAt).getTime()
      : Number.NaN;
    if (Number.isNaN(confirmed) || confirmed < now.getTime()) {
      manager.markOwnershipLost(record, "lease expired before it could be renewed");
      return null;
    }
    const next = addSeconds(now, manager.ownership.leaseSeconds).toISOString();
    try {
      const renewal = await runUrgent(() =>
        manager.store.renewLease(record.runId, manager.workerId, next),
      );
      if (!renewal.renewed) {
        if (record.isActive()) manager.markOwnershipLost(record, "lease renewal was refused");
        return null;
      }
      if (manager.clock.now().getTime() > confirmed) {
        manager.markOwnershipLost(record, "lease renewed only after it had expired");
        return null;
      }
      record.leaseExpiresAt = next;
      return renewal.cancelAction ?? null;
    } catch (error) {
      if (manager.clock.now().getTime() > confirmed) {
        manager.markOwnershipLost(record, `lease renewal failed: ${describeError(error)}`);
      }
      return null;
    }
  }
}
