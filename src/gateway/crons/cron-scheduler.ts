import { type Clock, systemClock } from "../../core/clock.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { CronStore } from "../../ports/cron-store.js";
import type { RunGateway } from "../runs/run-gateway.js";
import { type CronStepHook, type FiringOutcome, fireClaim } from "./cron-firing.js";

export interface CronSchedulerOptions {
  store: CronStore;
  runs: Pick<RunGateway, "create">;
  /** Names this process as a firing's lease holder (the run manager's worker id). */
  owner: string;
  /** How long a claimed firing is this process's before a peer may take it over. */
  leaseSeconds: number;
  /** Most firings claimed per tick; the rest wait for the next tick. */
  maxFiringsPerTick: number;
  /** Between two polls; 0: never poll (only explicit `tick` calls fire). */
  pollIntervalMs: number;
  clock?: Clock;
  logger: Logger;
  /** Fault injection: after each named step (`claim`, `run_create`, `advance`). */
  afterStep?: CronStepHook;
}

/**
 * Fires due crons. `tick(now)` claims what is due at `now` and fires each claim; in production a
 * timer calls it every `pollIntervalMs` with the clock's time, and tests call it directly. Any
 * number of processes may tick the same store: the claim makes each tick of a cron fire once.
 */
export class CronScheduler {
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly options: CronSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Claims the crons due at `now` and fires them one after the other. */
  async tick(now: Date = this.clock.now()): Promise<FiringOutcome[]> {
    const { store, afterStep } = this.options;
    const claims = await store.claimDue({
      now: now.toISOString(),
      owner: this.options.owner,
      leaseSeconds: this.options.leaseSeconds,
      limit: this.options.maxFiringsPerTick,
    });
    const outcomes: FiringOutcome[] = [];
    for (const claim of claims) {
      await afterStep?.("claim", claim);
      try {
        outcomes.push(await fireClaim({ ...this.options, afterStep }, claim, now));
      } catch (error) {
        // Left claimed: once the lease expires this process or a peer fires it again.
        this.options.logger.warn(
          { cronId: claim.cron.cron_id, tick: claim.tick, error: describeError(error) },
          "cron firing failed; it is retried after its lease expires",
        );
      }
    }
    return outcomes;
  }

  /** Starts polling (no-op when the interval is 0 or it already runs). */
  start(): void {
    if (this.options.pollIntervalMs <= 0 || this.timer !== null || this.stopped) return;
    this.timer = setInterval(() => this.poll(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  /** Stops polling and waits for a tick in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One polled tick at a time: a slow tick is not overlapped by the next. */
  private poll(): void {
    if (this.running !== null) return;
    this.running = this.tick()
      .catch((error: unknown) =>
        this.options.logger.warn({ error: describeError(error) }, "cron poll failed"),
      )
      .finally(() => {
        this.running = null;
      });
  }
}
