/**
 * The ceiling: the agent-load graph's own `stream()` in the bench process over the same paced
 * mock, with LangGraph's in-memory saver — no HTTP server, run records or journal.
 */
import { randomUUID } from "node:crypto";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { buildAgentLoadGraph } from "./agent-graph.js";
import { type RunWatch, stampLatencies } from "./sse-run.js";

export function bareRunner(mockUrl: string): (expectedTokens: number) => Promise<RunWatch> {
  const graph = buildAgentLoadGraph(mockUrl, new MemorySaver());
  return async (expectedTokens) => {
    const watch: RunWatch = { relayMs: [], tokens: 0, error: "" };
    try {
      const stream = await graph.stream(
        { messages: [{ role: "user", content: "Write the report." }] },
        { configurable: { thread_id: randomUUID() }, streamMode: ["values", "messages"] },
      );
      for await (const chunk of stream) {
        if (!Array.isArray(chunk) || chunk[0] !== "messages") continue;
        const payload: unknown = chunk[1];
        const message: unknown = Array.isArray(payload) ? payload[0] : undefined;
        const content =
          typeof message === "object" && message !== null && "content" in message
            ? message.content
            : undefined;
        if (typeof content !== "string") continue;
        const latencies: number[] = [];
        if (stampLatencies(content, latencies) !== 1) continue;
        watch.relayMs.push(...latencies);
        watch.tokens += 1;
      }
      if (watch.tokens < expectedTokens)
        watch.error = `${watch.tokens} of ${expectedTokens} tokens`;
    } catch (error) {
      watch.error = error instanceof Error ? error.message : String(error);
    }
    return watch;
  };
}
