import type { AssistantStore } from "./assistant-store.js";
import type { DocumentStore } from "./document-store.js";
import type { RunEventStore } from "./run-event-store.js";
import type { RunStore } from "./run-store.js";
import type { StoreDatabase } from "./store-database.js";
import type { ThreadStore } from "./thread-store.js";
import type { UserStore } from "./user-store.js";

/**
 * The durable stores one Fawn process works over. `Database` is what the store set's factory
 * knows of its database: the SQL factory gives its `SqlDatabase` (so the composition root can put
 * checkpoints and login counters beside the runs), the memory one `null`.
 */
export interface FawnStores<Database extends StoreDatabase | null = StoreDatabase | null> {
  runs: RunStore;
  events: RunEventStore;
  threads: ThreadStore;
  /** Users, sessions and API tokens (`auth.mode: local`), in the same database as the runs. */
  users: UserStore;
  /** Assistants and their versions (`/assistants…`). */
  assistants: AssistantStore;
  /** The harness's per-owner documents: memory, custom agents, skills (see document-store.ts). */
  documents: DocumentStore;
  /** The database behind the stores (health probe), or null for process-memory stores. */
  database: Database;
  close(): Promise<void>;
}
