/**
 * Thread state of a served LangGraph.js graph through the SDK: `next`, tasks with path and result,
 * subgraph tasks' state, reducer defaults in history, updates through the graph's reducers, state
 * at a checkpoint and in a subgraph's namespace.
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

async function ranSteps(): Promise<string> {
  const thread = await client.threads.create({ graphId: "steps" });
  await client.runs.wait(thread.thread_id, "steps", { input: { items: ["in"] } });
  return thread.thread_id;
}

describe("state of a served graph", () => {
  it("answers each checkpoint's next and tasks with their path and result", async () => {
    const threadId = await ranSteps();
    const history = await client.threads.getHistory(threadId);
    expect(history.map((state) => state.next)).toEqual([[], ["second"], ["first"], ["__start__"]]);
    const beforeSecond = history[1];
    expect(beforeSecond?.tasks).toEqual([
      expect.objectContaining({
        name: "second",
        path: ["__pregel_pull", "second"],
        result: { items: ["second after 2"] },
        error: null,
        interrupts: [],
      }),
    ]);
    expect(history[0]?.values).toEqual({ items: ["in", "first", "second after 2"] });
  });

  it("gives a never-written channel its reducer default in history, not an empty object", async () => {
    const threadId = await ranSteps();
    const history = await client.threads.getHistory(threadId);
    const input = history.at(-1);
    expect(input?.metadata?.source).toBe("input");
    expect(input?.values).toEqual({ items: [] });
  });

  it("reads the state at a checkpoint, by id and by checkpoint object", async () => {
    const threadId = await ranSteps();
    const history = await client.threads.getHistory(threadId);
    const target = history[2];
    const id = target?.checkpoint.checkpoint_id;
    if (!id) throw new Error("no checkpoint id");
    const byId = await client.threads.getState(threadId, id);
    expect(byId.values).toEqual({ items: ["in"] });
    expect(byId.next).toEqual(["first"]);
    const byObject = await client.threads.getState(threadId, {
      thread_id: threadId,
      checkpoint_ns: "",
      checkpoint_id: id,
      checkpoint_map: null,
    });
    expect(byObject.values).toEqual(byId.values);
    await expect(
      client.threads.getState(threadId, "1f000000-0000-6000-8000-000000000000"),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("applies an update as the named node: its reducer merges and next follows the graph", async () => {
    const thread = await client.threads.create({ graphId: "steps" });
    await client.threads.updateState(thread.thread_id, {
      values: { items: ["seeded"] },
      asNode: "__start__",
    });
    const afterStart = await client.threads.getState(thread.thread_id);
    expect(afterStart.next).toEqual(["first"]);
    await client.threads.updateState(thread.thread_id, {
      values: { items: ["by hand"] },
      asNode: "first",
    });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toEqual({ items: ["seeded", "by hand"] });
    expect(state.next).toEqual(["second"]);
    expect(state.metadata?.source).toBe("update");
    // A run continues from there: `second` sees both items.
    await client.runs.wait(thread.thread_id, "steps", { input: null });
    const done = await client.threads.getState(thread.thread_id);
    expect(done.values).toEqual({ items: ["seeded", "by hand", "second after 2"] });
  });

  it("forks from an older checkpoint: the update applies on top of that state", async () => {
    const threadId = await ranSteps();
    const history = await client.threads.getHistory(threadId);
    const afterFirst = history[1]?.checkpoint.checkpoint_id ?? undefined;
    const written = await client.threads.updateState(threadId, {
      values: { items: ["fork"] },
      asNode: "first",
      checkpointId: afterFirst,
    });
    const head = await client.threads.getState(threadId);
    expect(head.checkpoint.checkpoint_id).toBe(written.configurable?.checkpoint_id);
    expect(head.parent_checkpoint?.checkpoint_id).toBe(afterFirst);
    expect(head.values).toEqual({ items: ["in", "first", "fork"] });
    expect(head.next).toEqual(["second"]);
  });

  it("refuses an update the graph cannot attribute or apply, as a 422", async () => {
    const thread = await client.threads.create({ graphId: "steps" });
    await expect(
      client.threads.updateState(thread.thread_id, { values: { items: ["x"] }, asNode: "nope" }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("shows a subgraph task's own state with subgraphs=true, and its namespace's state", async () => {
    const thread = await client.threads.create({ graphId: "nested" });
    await client.runs.wait(thread.thread_id, "nested", { input: { items: [] } });

    const flat = await client.threads.getState(thread.thread_id);
    expect(flat.next).toEqual(["child"]);
    const [childTask] = flat.tasks;
    expect(childTask).toMatchObject({
      name: "child",
      path: ["__pregel_pull", "child"],
      state: null,
      interrupts: [{ value: "inner question" }],
    });
    const ns = childTask?.checkpoint?.checkpoint_ns ?? "";
    expect(ns).toMatch(/^child:/);

    const deep = await client.threads.getState(thread.thread_id, undefined, { subgraphs: true });
    const sub = deep.tasks[0]?.state;
    expect(sub).toMatchObject({
      values: { items: ["before", "inner start"] },
      next: ["inner_ask"],
      tasks: [{ name: "inner_ask", interrupts: [{ value: "inner question" }] }],
    });
    expect(sub?.checkpoint?.checkpoint_ns).toBe(ns);

    const inNamespace = await client.threads.getState(thread.thread_id, {
      thread_id: thread.thread_id,
      checkpoint_ns: ns,
      checkpoint_id: null,
      checkpoint_map: null,
    });
    expect(inNamespace.values).toEqual({ items: ["before", "inner start"] });
    expect(inNamespace.next).toEqual(["inner_ask"]);

    // Resuming finishes the subgraph and the parent.
    await client.runs.wait(thread.thread_id, "nested", { command: { resume: "yes" } });
    const done = await client.threads.getState(thread.thread_id);
    expect(done.next).toEqual([]);
    expect(done.values).toEqual({ items: ["before", "before", "inner start", "inner answer yes"] });
  });
});

describe("history of a served graph", () => {
  it("filters by checkpoint metadata and pages with before", async () => {
    const threadId = await ranSteps();
    const loops = await client.threads.getHistory(threadId, { metadata: { source: "loop" } });
    expect(loops.map((s) => s.next)).toEqual([[], ["second"], ["first"]]);
    const all = await client.threads.getHistory(threadId);
    const older = await client.threads.getHistory(threadId, {
      before: { configurable: { checkpoint_id: all[1]?.checkpoint.checkpoint_id } },
      limit: 1,
    });
    expect(older.map((s) => s.checkpoint.checkpoint_id)).toEqual([
      all[2]?.checkpoint.checkpoint_id,
    ]);
  });

  it("lists a subgraph namespace's own history", async () => {
    const thread = await client.threads.create({ graphId: "nested" });
    await client.runs.wait(thread.thread_id, "nested", { input: { items: [] } });
    const state = await client.threads.getState(thread.thread_id);
    const ns = state.tasks[0]?.checkpoint?.checkpoint_ns ?? "";
    const history = await client.threads.getHistory(thread.thread_id, {
      checkpoint: { checkpoint_ns: ns },
    });
    expect(history.map((s) => s.next)).toEqual([["inner_ask"], ["inner_start"], ["__start__"]]);
    expect(history.every((s) => s.checkpoint.checkpoint_ns === ns)).toBe(true);
  });
});
