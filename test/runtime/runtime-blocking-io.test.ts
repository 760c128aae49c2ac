/**
 * Runtime and store code must never block the event loop: whole runs (admission, worker, journal,
 * finalizer, evidence) execute inside the blocking-IO gate, where any synchronous fs or
 * child_process call throws. Store setup happens outside the gate (start-up may open files).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamingAgent } from "../../src/ports/agent.js";
import type { FawnStores } from "../../src/ports/fawn-stores.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { JsonlRunEventStore } from "../../src/stores/jsonl/run-event-store.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { within } from "../helpers/latch.js";

const agent: StreamingAgent = {
  async *stream() {
    yield ["custom", { type: "task_started", task_id: "sub-1", description: "offline check" }];
    yield ["values", { messages: [{ type: "ai", content: "done" }] }];
  },
};

let dir: string;
const opened: FawnStores[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-gate-"));
});

afterAll(async () => {
  for (const stores of opened) await stores.close();
  await rm(dir, { recursive: true, force: true });
});

async function runUnderGate(stores: FawnStores, events = stores.events): Promise<void> {
  const bridge = new MemoryStreamBridge();
  const service = new RunService({
    manager: new RunManager({
      store: stores.runs,
      ownership: { heartbeatEnabled: true, leaseSeconds: 30 },
    }),
    bridge,
    ctx: { eventStore: events, threadStore: stores.threads, spawnHousekeeping: () => undefined },
    agentFactory: () => agent,
  });
  await withBlockingIoGate(async () => {
    const record = await service.submit({
      threadId: `gate-${Math.random().toString(36).slice(2, 10)}`,
      userId: "alice",
      invocation: { input: {}, stream_mode: ["values", "custom"] },
    });
    await within(
      record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
      10_000,
      "run did not finish",
    );
    const row = await stores.runs.get(record.runId);
    expect(row?.status).toBe("success");
    expect(row?.evidence_seal_state).toBe("sealed");
    const terminal = await events.listEvents(record.threadId, record.runId, {
      eventTypes: ["run.terminal"],
    });
    expect(terminal).toHaveLength(1);
    await service.manager.shutdown({ timeoutMs: 1000 });
  });
}

describe("runtime code does no blocking IO", () => {
  it("memory stores", async () => {
    await runUnderGate(createMemoryStores());
  });

  it("memory run store with the JSONL event store", async () => {
    const stores = createMemoryStores();
    await runUnderGate(stores, new JsonlRunEventStore(join(dir, "jsonl")));
  });

  it("SQLite stores (the driver runs in a worker thread)", async () => {
    const stores = await openSqlStores(`sqlite:${join(dir, "gate.db")}`);
    opened.push(stores);
    await runUnderGate(stores);
  });
});
