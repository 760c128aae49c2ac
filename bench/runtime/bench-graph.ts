/**
 * The graph every runtime figure is taken on: the real lead agent (model ↔ tools loop, no
 * middlewares, no tools) over the scripted model. What a user message starts with picks the
 * script rule:
 * - anything else → one turn, a five-word answer (the "trivial one-turn script");
 * - `stream` → one turn of 200 words streamed 5 ms apart (~1 s of token events; loop-lag);
 * - `hold` → the model never answers until the run is cancelled (SSE fan-out).
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createLeadAgent } from "../../src/agent/lead-agent/create-lead-agent.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";

export const STREAM_WORDS = 200;
export const STREAM_DELAY_MS = 5;

const benchScript = parseScript(
  [
    { match: "^hold", hang: true },
    {
      match: "^stream",
      stream_delay_ms: STREAM_DELAY_MS,
      turns: [{ content: Array.from({ length: STREAM_WORDS }, (_, i) => `word${i}`).join(" ") }],
    },
    { turns: [{ content: "Hello from the benchmark." }] },
  ],
  "bench",
);

/** Without a checkpointer when the host attaches its own (langgraph-api does). */
export function buildBenchGraph(checkpointer?: BaseCheckpointSaver) {
  return createLeadAgent({
    model: new ScriptedChatModel({ script: benchScript, modelName: "bench" }),
    systemPrompt: "You are a benchmark agent.",
    ...(checkpointer ? { checkpointer } : {}),
  });
}

/** The assistant / graph id both servers serve it under. */
export const BENCH_ASSISTANT = "lead_agent";

/** A one-message run input as the SDK sends it. */
export function userInput(text: string) {
  return { messages: [{ role: "user", content: text }] };
}
