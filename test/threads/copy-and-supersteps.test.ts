/**
 * `POST /threads/{id}/copy` (metadata and the whole checkpoint history, subgraphs' included) and
 * threads created from `supersteps` (applied through the graph, so each checkpoint has its
 * `next`), through the SDK against a served gateway.
 */
import type { Client, ThreadState } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { type GraphGateway, startGraphGateway } from "./helpers/graph-gateway.js";

let g: GraphGateway | undefined;
let client: Client;
/** Null (with a loud warning) when no PostgreSQL server is reachable outside CI. */
const postgres = await createPostgresTestDatabase("thread_copy");

afterAll(async () => {
  await g?.close();
  await postgres?.drop();
});

const databases: Record<string, string | undefined> = {
  sqlite: undefined,
  memory: "memory:",
  ...(postgres ? { postgres: postgres.url } : {}),
};

/** A state as it reads on another thread: the same but for the thread ids it names. */
function onThread(state: ThreadState, threadId: string): unknown {
  const text = JSON.stringify(state);
  const from = state.checkpoint.thread_id;
  return JSON.parse(text.split(from).join(threadId));
}

// The SQL saver (SQLite, PostgreSQL) and the memory saver: copy uses the saver contract only.
describe.each(Object.keys(databases))("thread copy over %s", (name) => {
  beforeAll(async () => {
    await g?.close();
    const database = databases[name];
    g = await startGraphGateway(database ? { database } : {});
    client = g.client;
  });

  it("copies metadata, state and the whole history; runs on the copy leave the original alone", async () => {
    const thread = await client.threads.create({ graphId: "steps", metadata: { team: "a" } });
    await client.runs.wait(thread.thread_id, "steps", { input: { items: ["in"] } });
    const original = await client.threads.getState(thread.thread_id);
    const originalHistory = await client.threads.getHistory(thread.thread_id);

    const copy = await client.threads.copy(thread.thread_id);
    expect(copy.thread_id).not.toBe(thread.thread_id);
    // The run stamped the thread's graph and assistant, as the platform does; the copy keeps them.
    expect(copy.metadata).toEqual({ team: "a", graph_id: "steps", assistant_id: "steps" });
    expect(copy.metadata).toEqual((await client.threads.get(thread.thread_id)).metadata);
    expect(copy.values).toEqual(original.values);

    const copied = await client.threads.getState(copy.thread_id);
    expect(copied).toEqual(onThread(original, copy.thread_id));
    const copiedHistory = await client.threads.getHistory(copy.thread_id);
    expect(copiedHistory).toEqual(originalHistory.map((s) => onThread(s, copy.thread_id)));

    await client.runs.wait(copy.thread_id, "steps", { input: { items: ["again"] } });
    const continued = await client.threads.getState(copy.thread_id);
    expect(continued.values).toEqual({
      items: ["in", "first", "second after 2", "again", "first", "second after 5"],
    });
    expect(await client.threads.getState(thread.thread_id)).toEqual(original);
  });

  it("copies subgraph checkpoints and pending interrupts, so the copy resumes", async () => {
    const thread = await client.threads.create({ graphId: "nested" });
    await client.runs.wait(thread.thread_id, "nested", { input: { items: [] } });
    const copy = await client.threads.copy(thread.thread_id);
    expect(copy.status).toBe("interrupted");
    const deep = await client.threads.getState(copy.thread_id, undefined, { subgraphs: true });
    expect(deep.tasks[0]?.state).toMatchObject({
      values: { items: ["before", "inner start"] },
      next: ["inner_ask"],
    });
    await client.runs.wait(copy.thread_id, "nested", { command: { resume: "copy" } });
    const done = await client.threads.getState(copy.thread_id);
    expect(done.next).toEqual([]);
    expect(JSON.stringify(done.values)).toContain("inner answer copy");
    // The original still waits.
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
  });

  it("is a 404 for a thread the caller does not have", async () => {
    await expect(client.threads.copy("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject(
      { status: 404 },
    );
  });
});

describe("thread create with supersteps", () => {
  it("rebuilds a run's history from its updates, with the same next at every checkpoint", async () => {
    const source = await client.threads.create({ graphId: "steps" });
    const updates: Record<string, unknown>[] = [];
    for await (const chunk of client.runs.stream(source.thread_id, "steps", {
      input: { items: ["in"] },
      streamMode: ["updates"],
    })) {
      if (chunk.event === "updates") updates.push(chunk.data as Record<string, unknown>);
    }
    const history = await client.threads.getHistory(source.thread_id);
    const input = { items: ["in"] };
    const clone = await client.threads.create({
      graphId: "steps",
      supersteps: [
        { updates: [{ asNode: "__input__", values: input }] },
        { updates: [{ asNode: "__start__", values: input }] },
        ...updates.map((data) => ({
          updates: Object.entries(data).map(([asNode, values]) => ({
            asNode,
            values: values as Record<string, unknown>,
          })),
        })),
      ],
    });
    const rebuilt = await client.threads.getHistory(clone.thread_id);
    expect(rebuilt.map(({ next, values }) => ({ next, values }))).toEqual(
      history.map(({ next, values }) => ({ next, values })),
    );
    // Built by updates alone, the thread is idle even while it has nodes to run.
    const partial = await client.threads.create({
      graphId: "steps",
      supersteps: [{ updates: [{ asNode: "__start__", values: input }] }],
    });
    expect(partial.status).toBe("idle");
    expect((await client.threads.getState(partial.thread_id)).next).toEqual(["first"]);
  });

  it("applies a command update in a superstep", async () => {
    const thread = await client.threads.create({
      graphId: "steps",
      supersteps: [
        {
          updates: [
            { asNode: "first", values: null, command: { update: { items: ["commanded"] } } },
          ],
        },
      ],
    });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toEqual({ items: ["commanded"] });
    expect(state.next).toEqual(["second"]);
  });

  it("leaves no thread behind when the graph refuses a superstep, or no graph can run a command", async () => {
    const before = await client.threads.count();
    const threadId = "00000000-0000-4000-8000-00000000abcd";
    await expect(
      client.threads.create({
        threadId,
        graphId: "steps",
        supersteps: [{ updates: [{ asNode: "nope", values: { items: ["x"] } }] }],
      }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      client.threads.create({
        threadId,
        supersteps: [{ updates: [{ asNode: "first", values: null, command: { resume: 1 } }] }],
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await client.threads.count()).toBe(before);
    await expect(client.threads.get(threadId)).rejects.toMatchObject({ status: 404 });
  });
});
