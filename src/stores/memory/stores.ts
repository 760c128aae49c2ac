import type { FawnStores } from "../../ports/fawn-stores.js";
import { MemoryRunEventStore } from "./run-event-store.js";
import { MemoryRunStore, type MemoryStoreOptions } from "./run-store.js";
import { MemoryThreadStore } from "./thread-store.js";

/** The process-local stores behind `database.backend: memory` and most tests. */
export function createMemoryStores(options: MemoryStoreOptions = {}): FawnStores {
  const runs = new MemoryRunStore(options);
  const events = new MemoryRunEventStore({ ...options, owners: runs });
  const threads = new MemoryThreadStore({ ...options, owners: runs });
  return {
    runs,
    events,
    threads,
    async close() {
      await Promise.all([runs.close(), events.close(), threads.close()]);
    },
  };
}
