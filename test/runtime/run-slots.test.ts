/**
 * `runtime.max_running_runs`: past the limit a run stays `pending` (its stream open, nothing
 * executed) until a running one ends, then starts; one cancelled while it waits ends cancelled
 * without ever running its graph.
 */
import { describe, expect, it } from "vitest";
import { createFawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { RunSlots } from "../../src/runtime/lifecycle/run-slots.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

/** An agent that records which threads started and holds `heldThread`'s run until released. */
function holdingAgent(heldThread: string): {
  agent: StreamingAgent;
  started: string[];
  release(): void;
  firstStarted(): Promise<void>;
} {
  const started: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const agent: StreamingAgent = {
    async *stream(_input, options) {
      const threadId = String(options?.configurable?.thread_id);
      started.push(threadId);
      if (threadId === heldThread) await released;
      yield ["values", { messages: [{ type: "ai", content: `done ${threadId}` }] }];
    },
  };
  const firstStarted = () =>
    within(
      (async () => {
        while (started.length === 0) await new Promise((resolve) => setImmediate(resolve));
      })(),
      5_000,
      "the first run did not start",
    );
  return { agent, started, release: () => release(), firstStarted };
}

describe("run slots", () => {
  it("a run past the limit waits pending, then runs when a slot frees", async () => {
    const stores = createMemoryStores();
    const { agent, started, release: finishFirst, firstStarted } = holdingAgent("slot-1");
    const service = new RunService({
      manager: new RunManager({ store: stores.runs }),
      bridge: new MemoryStreamBridge(),
      ctx: {
        eventStore: stores.events,
        threadStore: stores.threads,
        runSlots: new RunSlots(1),
        spawnHousekeeping: () => undefined,
      },
      agentFactory: () => agent,
    });
    const submit = (threadId: string) =>
      service.submit({
        threadId,
        userId: "alice",
        invocation: { input: {}, stream_mode: ["values"] },
      });
    const settled = (record: Awaited<ReturnType<typeof submit>>) =>
      within(
        record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
        10_000,
        "run did not finish",
      );

    const first = await submit("slot-1");
    const second = await submit("slot-2");
    const third = await submit("slot-3");
    await firstStarted();
    // Cancelled while it waits for a slot: it never runs.
    await service.manager.cancel(third.runId, { action: "interrupt" });
    await settled(third);
    expect((await stores.runs.get(second.runId))?.status).toBe("pending");
    expect(started).toEqual(["slot-1"]);

    finishFirst();
    await settled(first);
    await settled(second);
    expect(started).toEqual(["slot-1", "slot-2"]);
    expect((await stores.runs.get(first.runId))?.status).toBe("success");
    expect((await stores.runs.get(second.runId))?.status).toBe("success");
    expect((await stores.runs.get(third.runId))?.status).not.toBe("success");
    await service.manager.shutdown({ timeoutMs: 1000 });
    await stores.close();
  });

  it("`runtime.max_running_runs` in the config limits the runs createFawn executes at once", async () => {
    const stores = createMemoryStores();
    const { agent, started, release: finishFirst, firstStarted } = holdingAgent("config-1");
    const fawn = await createFawn({
      config: parseConfig({ runtime: { max_running_runs: 1 } }, { env: {}, cwd: "/tmp" }).config,
      stores,
      agentFactory: () => agent,
    });
    try {
      const submit = (threadId: string) =>
        fawn.runs.submit({
          threadId,
          userId: "alice",
          invocation: { input: {}, stream_mode: ["values"] },
        });
      const first = await submit("config-1");
      const second = await submit("config-2");
      await firstStarted();
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(started).toEqual(["config-1"]);
      expect((await stores.runs.get(second.runId))?.status).toBe("pending");
      finishFirst();
      for (const record of [first, second]) {
        await within(
          record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
          10_000,
          "run did not finish",
        );
      }
      expect(started).toEqual(["config-1", "config-2"]);
    } finally {
      await fawn.close();
    }
  });
});
