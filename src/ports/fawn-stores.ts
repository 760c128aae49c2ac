import type { RunEventStore } from "./run-event-store.js";
import type { RunStore } from "./run-store.js";
import type { ThreadStore } from "./thread-store.js";

/** The durable stores one Fawn process works over. */
export interface FawnStores {
  runs: RunStore;
  events: RunEventStore;
  threads: ThreadStore;
  close(): Promise<void>;
}
