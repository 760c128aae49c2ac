import { MemoryRunEventStore } from "../../src/stores/memory/run-event-store.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { describeRunEventStore } from "../conformance/run-event-store.js";
import { describeRunStore } from "../conformance/run-store.js";

describeRunStore("memory", async () => ({ store: new MemoryRunStore() }));
describeRunEventStore("memory", async () => ({ store: new MemoryRunEventStore() }));
