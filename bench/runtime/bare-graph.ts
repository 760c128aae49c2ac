import { randomUUID } from "node:crypto";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { buildBenchGraph, userInput } from "./bench-graph.js";
import type { RunSample } from "./closed-loop.js";

/**
 * The ceiling: the same graph's `stream()` in this process, with LangGraph's in-memory saver,
 * a fresh thread per run and the same stream modes the HTTP clients ask for — no HTTP, no run
 * records, no journal.
 */
export function bareGraphRunner(): () => Promise<RunSample> {
  const graph = buildBenchGraph(new MemorySaver());
  return async () => {
    const start = performance.now();
    let firstEventMs = -1;
    const stream = await graph.stream(userInput("hi"), {
      configurable: { thread_id: randomUUID() },
      streamMode: ["values", "messages"],
    });
    for await (const _chunk of stream) {
      if (firstEventMs < 0) firstEventMs = performance.now() - start;
    }
    return { firstEventMs, totalMs: performance.now() - start };
  };
}
