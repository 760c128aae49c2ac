/**
 * The RunJournal as a LangChain callback handler on a real StateGraph: catalog events for the
 * root chain, the model call and the tool result, and token totals on the run row.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

class FixedChatModel extends BaseChatModel {
  _llmType(): string {
    return "fixed";
  }

  async _generate(): Promise<ChatResult> {
    const message = new AIMessage({
      content: "The answer is 42.",
      tool_calls: [{ id: "call-1", name: "lookup", args: { q: "answer" } }],
      usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      response_metadata: { model_name: "fixed-1" },
    });
    return { generations: [{ text: "The answer is 42.", message }] };
  }
}

const lookup = tool(async ({ q }: { q: string }) => `found ${q}`, {
  name: "lookup",
  description: "Look something up.",
  schema: z.object({ q: z.string() }),
});

const model = new FixedChatModel({});
const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", async (state, config: RunnableConfig) => ({
    messages: [await model.invoke(state.messages, config)],
  }))
  .addNode("tools", async (state, config: RunnableConfig) => {
    const last = state.messages.at(-1);
    const call = last instanceof AIMessage ? last.tool_calls?.[0] : undefined;
    if (!call) return {};
    return { messages: [await lookup.invoke({ ...call, type: "tool_call" }, config)] };
  })
  .addEdge(START, "agent")
  .addEdge("agent", "tools")
  .addEdge("tools", END)
  .compile();

const agent: StreamingAgent = {
  stream: (input, options) =>
    graph.stream(input as { messages: BaseMessage[] }, {
      configurable: options.configurable,
      callbacks: options.callbacks as RunnableConfig["callbacks"],
      streamMode: "values",
      signal: options.signal,
    }),
};

describe("RunJournal on a real graph", () => {
  it("records catalog events and token totals", async () => {
    const stores = createMemoryStores();
    const service = new RunService({
      manager: new RunManager({ store: stores.runs }),
      bridge: new MemoryStreamBridge(),
      ctx: { eventStore: stores.events, spawnHousekeeping: () => undefined },
      agentFactory: () => agent,
    });
    const record = await service.submit({
      threadId: "journal-thread",
      invocation: { input: { messages: [new HumanMessage("What is the answer?")] } },
    });
    await within(record.task?.settled() ?? Promise.resolve("done"), 10_000, "run did not finish");
    const events = await stores.events.listEvents(record.threadId, record.runId);
    const count = (type: string) => events.filter((e) => e.event_type === type).length;
    expect(count("run.start")).toBe(1);
    expect(count("run.end")).toBe(1);
    expect(count("llm.human.input")).toBe(1);
    expect(count("llm.ai.response")).toBe(1);
    expect(count("llm.tool.result")).toBe(1);
    expect(count("run.delivery")).toBe(1);
    expect(count("run.terminal")).toBe(1);
    const response = events.find((e) => e.event_type === "llm.ai.response");
    expect(response?.category).toBe("message");
    expect(response?.metadata).toMatchObject({ caller: "lead_agent", llm_call_index: 1 });
    expect(response?.content).toMatchObject({ type: "ai", content: "The answer is 42." });
    const toolResult = events.find((e) => e.event_type === "llm.tool.result");
    expect(toolResult?.content).toMatchObject({ type: "tool", content: "found answer" });
    const messages = await stores.events.listMessages(record.threadId);
    expect(messages.map((m) => m.event_type)).toEqual([
      "llm.human.input",
      "llm.ai.response",
      "llm.tool.result",
    ]);
    const row = await stores.runs.get(record.runId);
    expect(row).toMatchObject({
      status: "success",
      total_input_tokens: 10,
      total_output_tokens: 5,
      total_tokens: 15,
      llm_call_count: 1,
      lead_agent_tokens: 15,
      first_human_message: "What is the answer?",
      last_ai_message: "The answer is 42.",
      token_usage_by_model: { "fixed-1": { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
    });
    expect(row?.message_count).toBe(3);
    await service.manager.shutdown({ timeoutMs: 1000 });
  });
});
