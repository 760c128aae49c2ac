import type { Clock } from "../core/clock.js";
import type { FawnConfig } from "../core/config/schema.js";
import { describeError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { DEFAULT_USER_ID } from "../core/paths.js";
import { type GraphStoreBackend, graphStoreScope, ScopedGraphStore } from "../ports/graph-store.js";
import type { RunRecord } from "../runtime/run-record.js";
import { MemoryGraphStore } from "../stores/memory/graph-store.js";
import { SqlGraphStore } from "../stores/sql/graph-store/sql-graph-store.js";
import type { EmbeddableStores } from "./embeddable-stores.js";

/** The LangGraph store beside the runs, and the sweeper that deletes its expired items. */
export interface GraphStoreWiring {
  store: GraphStoreBackend;
  /** The store a run's graph gets: its user's scope under auth, the shared one without. */
  storeFor(record: RunRecord): ScopedGraphStore;
  /** Stops the sweeper and releases the store (not the database it shares). */
  close(): Promise<void>;
}

/** SQL stores keep it in their database; memory stores in process memory. */
export function wireGraphStore(
  config: FawnConfig,
  stores: EmbeddableStores,
  logger: Logger,
  clock?: Clock,
): GraphStoreWiring {
  const options = clock ? { clock } : {};
  const store: GraphStoreBackend = stores.database
    ? new SqlGraphStore(stores.database, options)
    : new MemoryGraphStore(options);
  const authEnabled = config.auth.mode !== "disabled";
  let sweeping: Promise<void> | null = null;
  // Expired items are already invisible; the sweep only gives their space back.
  const timer = setInterval(() => {
    sweeping ??= store
      .sweepExpired()
      .then((swept) => {
        if (swept > 0) logger.debug({ swept }, "expired store items deleted");
      })
      .catch((error: unknown) => {
        logger.warn({ error: describeError(error) }, "store TTL sweep failed");
      })
      .finally(() => {
        sweeping = null;
      });
  }, config.store.ttl_sweep_interval_seconds * 1000);
  timer.unref();
  return {
    store,
    storeFor: (record) =>
      new ScopedGraphStore(store, graphStoreScope(authEnabled, record.userId ?? DEFAULT_USER_ID)),
    async close() {
      clearInterval(timer);
      await sweeping;
      await store.close();
    },
  };
}
