import type { FawnStores } from "../../ports/fawn-stores.js";
import { MemoryAssistantStore } from "./assistant-store.js";
import { MemoryDocumentStore } from "./document-store.js";
import { MemoryRunEventStore } from "./run-event-store.js";
import { MemoryRunStore, type MemoryStoreOptions } from "./run-store.js";
import { MemoryThreadStore } from "./thread-store.js";
import { MemoryUserStore } from "./user-store.js";

/** The process-local stores behind `database.backend: memory` and most tests. */
export function createMemoryStores(options: MemoryStoreOptions = {}): FawnStores<null> {
  const runs = new MemoryRunStore(options);
  const events = new MemoryRunEventStore({ ...options, owners: runs });
  const threads = new MemoryThreadStore({ ...options, owners: runs });
  const users = new MemoryUserStore();
  const assistants = new MemoryAssistantStore();
  const documents = new MemoryDocumentStore(options.clock ? { clock: options.clock } : {});
  return {
    runs,
    events,
    threads,
    users,
    assistants,
    documents,
    database: null,
    async close() {
      await Promise.all([
        runs.close(),
        events.close(),
        threads.close(),
        users.close(),
        assistants.close(),
        documents.close(),
      ]);
    },
  };
}
