import { MemoryRunEventStore } from "../../src/stores/memory/run-event-store.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { MemoryThreadStore } from "../../src/stores/memory/thread-store.js";
import { describeRunEventStore } from "../conformance/run-event-store.js";
import { describeRunStore } from "../conformance/run-store.js";
import { describeThreadStore } from "../conformance/thread-store.js";

describeRunStore("memory", async () => ({ store: new MemoryRunStore() }));
describeRunEventStore("memory", async () => {
  const runs = new MemoryRunStore();
  return { store: new MemoryRunEventStore({ owners: runs }), runs };
});
describeThreadStore("memory", async () => {
  const runs = new MemoryRunStore();
  return { store: new MemoryThreadStore({ owners: runs }), runs };
});
