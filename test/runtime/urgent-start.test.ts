/**
 * A run's start is the rest of its admission: the first SSE event waits for its `pending` →
 * `running` write and the thread's `busy` write, so both run inside `runUrgent` (a serialized
 * store, the one SQLite connection, serves them before queued background work). The run's later
 * writes (its terminal status, the thread going idle) are ordinary.
 */
import { describe, expect, it } from "vitest";
import { isUrgent } from "../../src/core/async/urgency.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

const agent: StreamingAgent = {
  async *stream() {
    yield ["values", { messages: [{ type: "ai", content: "done" }] }];
  },
};

describe("a run's start writes are urgent", () => {
  it("`running` and the thread's `busy` go urgently; the writes after the graph do not", async () => {
    const stores = createMemoryStores();
    const marks: string[] = [];
    const startRun = stores.runs.startRun.bind(stores.runs);
    stores.runs.startRun = (...args: Parameters<typeof startRun>) => {
      marks.push(`start:${isUrgent()}`);
      return startRun(...args);
    };
    const updateStatus = stores.threads.updateStatus.bind(stores.threads);
    stores.threads.updateStatus = (...args: Parameters<typeof updateStatus>) => {
      marks.push(`thread ${args[1]}:${isUrgent()}`);
      return updateStatus(...args);
    };
    const service = new RunService({
      manager: new RunManager({
        store: stores.runs,
        ownership: { heartbeatEnabled: true, leaseSeconds: 30 },
      }),
      bridge: new MemoryStreamBridge(),
      ctx: { eventStore: stores.events, threadStore: stores.threads, spawnHousekeeping: () => {} },
      agentFactory: () => agent,
    });
    const record = await service.submit({
      threadId: "urgent-start",
      userId: "alice",
      invocation: { input: {}, stream_mode: ["values"] },
    });
    await within(
      record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
      10_000,
      "run did not finish",
    );
    expect((await stores.runs.get(record.runId))?.status).toBe("success");
    expect(marks).toEqual(["start:true", "thread busy:true", "thread idle:false"]);
    await service.manager.shutdown({ timeoutMs: 1000 });
    await stores.close();
  });
});
