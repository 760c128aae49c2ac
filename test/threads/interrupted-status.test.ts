/**
 * A thread whose head waits on a human reads `interrupted`, with `interrupts` per pending task:
 * after an `interrupt()` (dynamic) or a run stopped by `interrupt_before` (static), and still
 * after a state update on top; a finished run makes it idle again.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GraphGateway, startGraphGateway } from "./helpers/graph-gateway.js";

let g: GraphGateway;
let client: Client;

beforeAll(async () => {
  g = await startGraphGateway();
  client = g.client;
});
afterAll(async () => {
  await g?.close();
});

describe("interrupted threads", () => {
  it("a pending interrupt() makes the thread interrupted, with its interrupts by task", async () => {
    const thread = await client.threads.create({ graphId: "ask" });
    await client.runs.wait(thread.thread_id, "ask", { input: { items: [] } });
    const read = await client.threads.get(thread.thread_id);
    expect(read.status).toBe("interrupted");
    const state = await client.threads.getState(thread.thread_id);
    const task = state.tasks[0];
    if (!task) throw new Error("no pending task");
    expect(read.interrupts).toEqual({
      [task.id]: [expect.objectContaining({ value: { question: "name?" } })],
    });

    await client.runs.wait(thread.thread_id, "ask", { command: { resume: "Ada" } });
    const after = await client.threads.get(thread.thread_id);
    expect(after.status).toBe("idle");
    expect(after.interrupts).toEqual({});
    expect(after.values).toEqual({ items: ["answer Ada"] });
  });

  it("interrupt_before stops the run and the thread reads interrupted, also after an update", async () => {
    const thread = await client.threads.create({ graphId: "steps" });
    await client.runs.wait(thread.thread_id, "steps", {
      input: { items: ["in"] },
      interruptBefore: ["second"],
    });
    const stopped = await client.threads.get(thread.thread_id);
    expect(stopped.status).toBe("interrupted");
    const state = await client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["second"]);
    expect(stopped.interrupts).toEqual({ [state.tasks[0]?.id ?? "?"]: [] });

    await client.threads.updateState(thread.thread_id, { values: { items: ["edited"] } });
    const edited = await client.threads.get(thread.thread_id);
    expect(edited.status).toBe("interrupted");
    expect(edited.values).toEqual({ items: ["in", "first", "edited"] });

    await client.runs.wait(thread.thread_id, "steps", { input: null });
    const done = await client.threads.get(thread.thread_id);
    expect(done.status).toBe("idle");
    expect(done.values).toEqual({ items: ["in", "first", "edited", "second after 3"] });
    const found = await client.threads.search({
      ids: [thread.thread_id],
      select: ["values", "status"],
    });
    expect(found[0]?.status).toBe("idle");
  });
});
