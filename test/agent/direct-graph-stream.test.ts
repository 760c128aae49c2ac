/**
 * `directGraphStream`: the lead agent's chunks straight from the graph's stream iterator are the
 * chunks `graph.stream()` yields, a graph error still surfaces from the iteration, and a consumer
 * that stops early aborts the graph's tasks instead of waiting for the run to finish.
 */
import { randomUUID } from "node:crypto";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { createLeadAgent } from "../../src/agent/lead-agent/create-lead-agent.js";
import { directGraphStream } from "../../src/agent/lead-agent/direct-graph-stream.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";

const script = parseScript(
  [
    {
      match: "^slow",
      stream_delay_ms: 1_000,
      turns: [{ content: Array.from({ length: 1_000 }, (_, i) => `word${i}`).join(" ") }],
    },
    { turns: [{ content: "Hello there from the scripted model, five words." }] },
  ],
  "direct",
);

function graph() {
  return createLeadAgent({
    model: new ScriptedChatModel({ script, modelName: "direct" }),
    checkpointer: new MemorySaver(),
  });
}

const MODES = ["values", "messages", "updates"] as const;

/** A chunk without the per-run ids (message ids, run ids in metadata) that differ between runs. */
function shape(chunk: unknown): unknown {
  return JSON.parse(
    JSON.stringify(chunk, (key, value: unknown) =>
      ["id", "run_id", "thread_id", "checkpoint_ns", "langgraph_checkpoint_ns"].includes(key)
        ? "*"
        : value,
    ),
  );
}

describe("directGraphStream", () => {
  it("yields what graph.stream() yields, in the same order", async () => {
    const input = { messages: [{ role: "user", content: "hi" }] };
    const viaStream: unknown[] = [];
    const g = graph();
    for await (const chunk of await g.stream(input, {
      configurable: { thread_id: randomUUID() },
      streamMode: [...MODES],
    })) {
      viaStream.push(shape(chunk));
    }
    const direct: unknown[] = [];
    for await (const chunk of directGraphStream(g, input, {
      configurable: { thread_id: randomUUID() },
      streamMode: [...MODES],
    })) {
      direct.push(shape(chunk));
    }
    expect(direct.length).toBeGreaterThan(3);
    expect(direct).toEqual(viaStream);
  });

  it("raises the graph's error from the iteration", async () => {
    const chunks = directGraphStream(
      graph(),
      { messages: [{ role: "user", content: "hi" }] },
      // A checkpointed graph without a thread id is refused by LangGraph.
      { streamMode: ["values"] },
    );
    await expect(async () => {
      for await (const _chunk of chunks) {
        // drain
      }
    }).rejects.toThrow(/thread_id/);
  });

  it("aborts the run's tasks when the consumer stops early", async () => {
    const outer = new AbortController();
    const chunks = directGraphStream(
      graph(),
      { messages: [{ role: "user", content: "slow answer please" }] },
      {
        configurable: { thread_id: randomUUID() },
        streamMode: ["messages"],
        signal: outer.signal,
      },
    );
    let seen = 0;
    for await (const _chunk of chunks) {
      seen += 1;
      // The model streams a token a second for 1,000 s: without the abort, leaving this loop
      // would wait for the whole run (and the test would time out).
      break;
    }
    expect(seen).toBe(1);
    // The caller's own signal is left alone.
    expect(outer.signal.aborted).toBe(false);
  });
});
