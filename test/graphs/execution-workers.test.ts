/**
 * `runtime.workers`: served graphs stream in execution worker threads while the run's lifecycle,
 * its stores and its stream stay on the main thread (SQLite, the embedded default). Driven through
 * the real SDK `Client`.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

const PROBES_DIR = fileURLToPath(new URL("../fixtures/graphs/workers/", import.meta.url));

interface ProbeValues {
  mainThread?: boolean | null;
  threadId?: number | null;
  runs?: number;
}

describe("execution workers (runtime.workers: 2)", () => {
  let server: ServedGraphs;

  beforeAll(async () => {
    server = await serveGraphs({
      workers: 2,
      configDir: PROBES_DIR,
      config: () => ({
        graphs: {
          probe: "./worker-probes.ts:probe",
          hold: "./worker-probes.ts:hold",
          crash: "./worker-probes.ts:crash",
        },
      }),
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("runs a served graph in a worker thread, its checkpoints read back on the main thread", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const first = (await client.runs.wait(thread.thread_id, "probe", { input: {} })) as ProbeValues;
    expect(first.mainThread).toBe(false);
    expect(first.threadId).toBeGreaterThan(0);
    // The second run starts from the checkpoint the first wrote through the main thread.
    const second = (await client.runs.wait(thread.thread_id, "probe", {
      input: {},
    })) as ProbeValues;
    expect(second.runs).toBe(2);
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as ProbeValues).runs).toBe(2);
    const history = await client.threads.getHistory(thread.thread_id);
    expect(history.length).toBeGreaterThan(2);
  });

  it("spreads concurrent runs over the workers", async () => {
    const client = server.client();
    const results = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const thread = await client.threads.create();
        return (await client.runs.wait(thread.thread_id, "probe", { input: {} })) as ProbeValues;
      }),
    );
    const threads = new Set(results.map((values) => values.threadId));
    expect(threads.size).toBe(2);
  });

  it("journals a worker's run in the main thread's event store", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "probe", { input: {} });
    await client.runs.join(thread.thread_id, run.run_id);
    const events = await server.fawn.stores.events.listEvents(thread.thread_id, run.run_id);
    const types = events.map((event) => event.event_type);
    expect(types).toContain("run.start");
    expect(types).toContain("run.end");
    expect(types).toContain("run.terminal");
    // The worker's events come before the finalizer's terminal, in seq order.
    expect(types.indexOf("run.end")).toBeLessThan(types.indexOf("run.terminal"));
  });

  it("cancels a run streaming in a worker", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "hold", { input: {} });
    // Started (in its worker) before it is cancelled.
    for (let i = 0; i < 200; i++) {
      if ((await client.runs.get(thread.thread_id, run.run_id)).status === "running") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await client.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    // The worker is free for the next run.
    const next = await client.threads.create();
    const values = (await client.runs.wait(next.thread_id, "probe", { input: {} })) as ProbeValues;
    expect(values.mainThread).toBe(false);
  });

  it("fails the runs of a worker that exits, and serves the next run from its replacement", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const errors: unknown[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, "crash", { input: {} })) {
      if (chunk.event === "error") errors.push(chunk.data);
    }
    expect(JSON.stringify(errors)).toContain("ExecutionWorkerExited");
    const [run] = await client.runs.list(thread.thread_id);
    expect(run?.status).toBe("error");
    const results = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const next = await client.threads.create();
        return (await client.runs.wait(next.thread_id, "probe", { input: {} })) as ProbeValues;
      }),
    );
    expect(results.every((values) => values.mainThread === false)).toBe(true);
  });
});
