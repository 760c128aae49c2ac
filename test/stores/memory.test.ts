import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { describeRunStore } from "../conformance/run-store.js";

describeRunStore("memory", async () => ({ store: new MemoryRunStore() }));
