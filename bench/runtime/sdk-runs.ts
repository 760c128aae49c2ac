import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { BENCH_ASSISTANT, userInput } from "./bench-graph.js";
import type { RunSample } from "./closed-loop.js";

/** The stream modes a chat UI (`useStream`) asks for. */
export const STREAM_MODES = ["values", "messages-tuple"] as const;

/** The real LangGraph SDK client, with no client-side cap on concurrent requests or retries. */
export function benchClient(apiUrl: string): Client {
  return new Client({
    apiUrl,
    apiKey: null,
    // The SDK queues beyond 4 concurrent requests by default; the load must reach the server.
    callerOptions: { maxRetries: 0, maxConcurrency: Number.POSITIVE_INFINITY },
  });
}

/**
 * One run over HTTP as a UI starts it: `POST /threads/{new uuid}/runs/stream` with
 * `if_not_exists: create` (one request creates the thread and streams the run), read to the end.
 */
export async function streamOneRun(client: Client, text = "hi"): Promise<RunSample> {
  const start = performance.now();
  let firstEventMs = -1;
  const stream = client.runs.stream(randomUUID(), BENCH_ASSISTANT, {
    input: userInput(text),
    streamMode: [...STREAM_MODES],
    ifNotExists: "create",
  });
  for await (const chunk of stream) {
    if (firstEventMs < 0) firstEventMs = performance.now() - start;
    if (chunk.event === "error") throw new Error(`run failed: ${JSON.stringify(chunk.data)}`);
  }
  if (firstEventMs < 0) throw new Error("the run's stream carried no event");
  return { firstEventMs, totalMs: performance.now() - start };
}
