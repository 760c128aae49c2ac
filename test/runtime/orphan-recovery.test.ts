/**
 * Recovery beyond the seed: runs whose owner died after committing a status but before sealing,
 * and the server's start-up recovery (END for orphaned streams, thread status, queued runs).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { newRunRow } from "../../src/ports/run-row.js";
import type { RunStatus } from "../../src/ports/run-types.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

const stores = createMemoryStores();

async function putOrphan(status: RunStatus, extra: { threadId?: string; queued?: boolean } = {}) {
  const runId = randomUUID();
  const threadId = extra.threadId ?? randomUUID();
  await stores.runs.put(
    newRunRow(
      {
        run_id: runId,
        thread_id: threadId,
        user_id: "alice",
        created_at: new Date(Date.now() - 120_000 + (extra.queued ? 1000 : 0)).toISOString(),
        kwargs: { input: { messages: [] }, stream_mode: ["values"] },
      },
      {
        status,
        queued: extra.queued ?? false,
        owner_worker_id: "dead-owner",
        lease_expires_at: extra.queued ? null : new Date(Date.now() - 60_000).toISOString(),
      },
    ),
  );
  return { runId, threadId };
}

function manager(): RunManager {
  return new RunManager({
    store: stores.runs,
    eventStore: stores.events,
    ownership: { heartbeatEnabled: true, leaseSeconds: 30, graceSeconds: 0 },
  });
}

describe("recovery of runs whose owner died", () => {
  it("completes the evidence of a finished but unsealed run without changing its status", async () => {
    const run = await putOrphan("success");
    await stores.events.putIfAbsent({
      thread_id: run.threadId,
      run_id: run.runId,
      event_type: "run.delivery",
      category: "outputs",
      content: { presented: 1, paths: ["/mnt/user-data/outputs/a.md"], by_tool: {} },
      user_id: "alice",
    });
    const [first, second] = await Promise.all([
      manager().recoverUnsealedRuns(),
      manager().recoverUnsealedRuns(),
    ]);
    expect([...(first ?? []), ...(second ?? [])].map((r) => r.runId)).toEqual([run.runId]);
    const row = await stores.runs.get(run.runId);
    expect(row).toMatchObject({ status: "success", evidence_seal_state: "partial" });
    const terminal = await stores.events.listEvents(run.threadId, run.runId, {
      eventTypes: ["run.terminal"],
    });
    expect(terminal).toHaveLength(1);
    expect(terminal[0]?.content).toEqual({ status: "success" });
    expect(terminal[0]?.metadata.recovered).toBe(true);
    const delivery = await stores.events.listEvents(run.threadId, run.runId, {
      eventTypes: ["run.delivery"],
    });
    expect(delivery).toHaveLength(1);
    expect(delivery[0]?.content).toMatchObject({ presented: 1 });
  });

  it("start-up recovery ends orphaned streams, marks the thread and launches its queued run", async () => {
    const orphan = await putOrphan("running");
    const waiting = await putOrphan("pending", { threadId: orphan.threadId, queued: true });
    const bridge = new MemoryStreamBridge();
    const agent: StreamingAgent = {
      async *stream() {
        yield { messages: [{ type: "ai", content: "resumed" }] };
      },
    };
    const fawn = await createFawn({
      config: parseConfig({}, { env: {}, cwd: "/tmp" }).config,
      stores,
      bridge,
      agentFactory: () => agent,
    });
    try {
      expect((await stores.runs.get(orphan.runId))?.status).toBe("error");
      expect((await stores.runs.get(orphan.runId))?.stop_reason).toBe("orphan_recovered");
      expect(bridge.hasEnded(orphan.runId)).toBe(true);
      const launched = fawn.manager.getLocal(waiting.runId);
      await within(
        launched?.task?.settled() ?? Promise.reject(new Error("queued run not launched")),
        5000,
        "queued run did not finish",
      );
      expect((await stores.runs.get(waiting.runId))?.status).toBe("success");
    } finally {
      await fawn.close();
    }
  });
});
