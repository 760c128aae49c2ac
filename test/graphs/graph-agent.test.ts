/**
 * The run adapter of a served graph: each run streams a copy of the compiled graph bound to the
 * run's checkpointer and store (the shared instance is never changed), the graph's own
 * `interruptBefore` stays, and the store handed to the factory reaches the graph's nodes.
 */
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { graphAgent } from "../../src/graphs/graph-agent.js";
import { graph as storeGraph } from "../fixtures/graphs/store-graph.js";
import { graph as toolAgent } from "../fixtures/graphs/tool-agent.js";

async function lastValues(stream: AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>) {
  let last: unknown;
  for await (const chunk of await stream) last = chunk;
  return last as Record<string, unknown>;
}

describe("graphAgent", () => {
  it("gives the graph the run's store, through config.store and getStore()", async () => {
    const store = new InMemoryStore();
    const checkpointer = new MemorySaver();
    const agent = graphAgent(storeGraph, { checkpointer, store });
    const options = (thread: string) => ({
      configurable: { thread_id: thread },
      streamMode: "values",
    });
    expect(await lastValues(agent.stream({ note: "first" }, options("t1")))).toMatchObject({
      hasStore: true,
      seen: null,
    });
    expect(await lastValues(agent.stream({ note: "second" }, options("t2")))).toMatchObject({
      hasStore: true,
      seen: "first",
    });
    expect((await store.get(["notes"], "last"))?.value).toEqual({ text: "second" });
  });

  it("never changes the shared compiled graph", async () => {
    const before = { checkpointer: storeGraph.checkpointer, store: storeGraph.store };
    graphAgent(storeGraph, { checkpointer: new MemorySaver(), store: new InMemoryStore() });
    expect({ checkpointer: storeGraph.checkpointer, store: storeGraph.store }).toEqual(before);
  });

  it("keeps the graph's own interruptBefore; a run's list replaces it", async () => {
    const checkpointer = new MemorySaver();
    const agent = graphAgent(toolAgent, { checkpointer });
    const input = { messages: [{ role: "user", content: "weather?" }] };
    await lastValues(
      agent.stream(input, { configurable: { thread_id: "a" }, streamMode: "values" }),
    );
    // The shared graph keeps no saver; read through one bound to this run's.
    expect(toolAgent.checkpointer).toBeUndefined();
    const bound = toolAgent.withConfig({});
    bound.checkpointer = checkpointer;
    expect((await bound.getState({ configurable: { thread_id: "a" } })).next).toEqual(["tools"]);

    await lastValues(
      agent.stream(input, {
        configurable: { thread_id: "b" },
        streamMode: "values",
        interruptBefore: ["agent"],
      }),
    );
    expect((await bound.getState({ configurable: { thread_id: "b" } })).next).toEqual(["agent"]);
  });

  it("bounds the run's recursion limit", async () => {
    const agent = graphAgent(
      toolAgent,
      { checkpointer: new MemorySaver() },
      { maxRecursionLimit: 1 },
    );
    const run = lastValues(
      agent.stream(
        { messages: [{ role: "user", content: "weather?" }] },
        { configurable: { thread_id: "c" }, recursion_limit: 50, interruptBefore: [] },
      ),
    );
    await expect(run).rejects.toThrow(/Recursion limit of 1/);
  });
});
