import type { Clock } from "../core/clock.js";
import type { FawnConfig } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { CronStepHook } from "../gateway/crons/cron-firing.js";
import { CronScheduler } from "../gateway/crons/cron-scheduler.js";
import type { RunGateway } from "../gateway/runs/run-gateway.js";
import type { CronStore } from "../ports/cron-store.js";
import { MemoryCronStore } from "../stores/memory/cron-store.js";
import { SqlCronStore } from "../stores/sql/sql-cron-store.js";
import type { EmbeddableStores } from "./embeddable-stores.js";

export interface CronHostSettings {
  config: FawnConfig["crons"];
  /** This process's worker id: it holds the leases of the firings it claims. */
  owner: string;
  clock?: Clock | undefined;
  logger: Logger;
}

/**
 * This process's crons: the store (beside the other stores, in the same database) and the
 * scheduler, which needs the gateway's run admission and so starts once a gateway is built over
 * this runtime; `Fawn.close()` stops it before the runs drain.
 */
export class CronHost {
  private current: CronScheduler | null = null;

  constructor(
    readonly store: CronStore,
    private readonly settings: CronHostSettings,
  ) {}

  /** The runtime's injected clock, if any (cron creation and polling read it). */
  get clock(): Clock | undefined {
    return this.settings.clock;
  }

  get enabled(): boolean {
    return this.settings.config.enabled;
  }

  /** The scheduler, once a gateway attached it. */
  get scheduler(): CronScheduler | null {
    return this.current;
  }

  /** Fires crons through `runs` (the first gateway's; later calls keep it) and starts polling. */
  attach(runs: Pick<RunGateway, "create">, afterStep?: CronStepHook): CronScheduler {
    if (this.current) return this.current;
    const { config, owner, clock, logger } = this.settings;
    this.current = new CronScheduler({
      store: this.store,
      runs,
      owner,
      leaseSeconds: config.lease_seconds,
      maxFiringsPerTick: config.max_firings_per_poll,
      pollIntervalMs: config.poll_interval_seconds * 1000,
      ...(clock ? { clock } : {}),
      logger: logger.child({ component: "crons" }),
      ...(afterStep ? { afterStep } : {}),
    });
    if (config.enabled) this.current.start();
    return this.current;
  }

  async stop(): Promise<void> {
    await this.current?.stop();
  }
}

/** The cron store over the stores' SQL database, or in memory beside memory stores. */
export function cronStoreOf(stores: EmbeddableStores): CronStore {
  return stores.database ? new SqlCronStore(stores.database) : new MemoryCronStore();
}
