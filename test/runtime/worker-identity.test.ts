/** The graph sees the admitted run's identity, never a client-supplied one. */
import { describe, expect, it } from "vitest";
import type { AgentStreamOptions, StreamingAgent } from "../../src/ports/agent.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

describe("run identity handed to the graph", () => {
  it("overrides client-supplied thread, run and user ids in configurable and context", async () => {
    const seen: AgentStreamOptions[] = [];
    const factoryConfigs: Record<string, unknown>[] = [];
    const agent: StreamingAgent = {
      async *stream(_input, options) {
        seen.push(options);
        yield {};
      },
    };
    const stores = createMemoryStores();
    const service = new RunService({
      manager: new RunManager({ store: stores.runs }),
      bridge: new MemoryStreamBridge(),
      ctx: { eventStore: stores.events, spawnHousekeeping: () => undefined },
      agentFactory: ({ config }) => {
        factoryConfigs.push(config);
        return agent;
      },
    });
    const spoofed = {
      user_id: "mallory",
      thread_id: "other-thread",
      run_id: "other-run",
      model_name: "demo",
    };
    const record = await service.submit({
      threadId: "identity-thread",
      userId: "alice",
      invocation: { input: {}, config: { configurable: spoofed, context: spoofed } },
    });
    await within(record.task?.settled() ?? Promise.resolve("done"), 5000, "run did not finish");
    const expected = {
      user_id: "alice",
      thread_id: "identity-thread",
      run_id: record.runId,
      model_name: "demo",
    };
    expect(seen[0]?.configurable).toEqual(expected);
    expect(seen[0]?.context).toEqual(expected);
    expect(factoryConfigs[0]?.configurable).toEqual(expected);
  });
});
