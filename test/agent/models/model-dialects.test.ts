/**
 * The reference's OpenAI-compatible model classes, each driven through the real
 * `@langchain/openai` client against a local fake provider: what the request carries (dialect
 * quirks: replayed reasoning, flags, dropped fields) and that streamed text, reasoning and tool
 * calls come back.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "../../../src/agent/models/create-chat-model.js";
import { parseToolCalls } from "../../../src/agent/models/dialects/mindie-dialect.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { type FakeProvider, startFakeProvider } from "../../helpers/fake-openai-provider.js";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

const lookup = tool(async () => "found", {
  name: "lookup",
  description: "look something up",
  schema: z.object({ query: z.string() }),
});

async function modelFor(use: string, fields: Record<string, unknown> = {}): Promise<BaseChatModel> {
  const { config } = parseConfig(
    { models: [{ name: "m", model: "model-x", use, base_url: fake.url, api_key: "k", ...fields }] },
    { env: {} },
  );
  const entry = config.models[0];
  if (!entry) throw new Error("no model parsed");
  return createChatModel(entry, { env: {}, thinkingEnabled: true });
}

async function streamed(model: BaseChatModel, messages: BaseMessage[]): Promise<AIMessageChunk> {
  const bound = model.bindTools?.([lookup]);
  if (!bound) throw new Error("model cannot bind tools");
  let whole: AIMessageChunk | undefined;
  for await (const chunk of await bound.stream(messages))
    whole = whole ? whole.concat(chunk) : chunk;
  if (!whole) throw new Error("nothing streamed");
  return whole;
}

function lastBody(): Record<string, unknown> {
  const body = fake.bodies.at(-1);
  if (!body) throw new Error("no request reached the fake provider");
  return body;
}

function sentMessages(): Array<Record<string, unknown>> {
  const messages = lastBody().messages;
  return Array.isArray(messages) ? messages : [];
}

const TOOL_CALL_DELTAS = [
  { role: "assistant", content: "Let me look. " },
  {
    tool_calls: [
      { index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: "" } },
    ],
  },
  { tool_calls: [{ index: 0, function: { arguments: '{"query":"fawn"}' } }] },
];
const XML_TOOL_CALL = {
  role: "assistant",
  content:
    "Let me look. <tool_call> <function=lookup> <parameter=query>fawn</parameter> </function> </tool_call>",
};

/** A conversation whose earlier answer thought and called a tool. */
function historyWithReasoning(): BaseMessage[] {
  return [
    new HumanMessage({ content: "find fawn", name: "user-input" }),
    new AIMessage({
      content: "",
      tool_calls: [{ id: "call_0", name: "lookup", args: { query: "fawn" }, type: "tool_call" }],
      additional_kwargs: { reasoning_content: "I should search." },
    }),
    new ToolMessage({ content: "found", tool_call_id: "call_0" }),
    new HumanMessage({ content: "and now?", name: "summary" }),
  ];
}

describe.each([
  "langchain_openai:ChatOpenAI",
  "deerflow.models.patched_openai:PatchedChatOpenAI",
  "langchain_deepseek:ChatDeepSeek",
  "deerflow.models.patched_deepseek:PatchedChatDeepSeek",
  "deerflow.models.patched_mimo:PatchedChatMiMo",
  "deerflow.models.patched_stepfun:PatchedChatStepFun",
  "deerflow.models.patched_minimax:PatchedChatMiniMax",
  "deerflow.models.vllm_provider:VllmChatModel",
  "deerflow.models.mindie_provider:MindIEChatModel",
  "langchain_ollama:ChatOllama",
  "langchain_google_genai:ChatGoogleGenerativeAI",
])("%s against a local provider", (use) => {
  it("streams text and a tool call back, with the tools and the model in the request", async () => {
    fake.answer({ deltas: TOOL_CALL_DELTAS, message: XML_TOOL_CALL, finish_reason: "tool_calls" });
    const answer = await streamed(await modelFor(use), [new HumanMessage("find fawn")]);
    expect(answer.content).toContain("Let me look.");
    expect(answer.tool_calls).toEqual([
      expect.objectContaining({ name: "lookup", args: { query: "fawn" } }),
    ]);
    const body = lastBody();
    expect(body.model).toBe("model-x");
    expect(JSON.stringify(body.tools)).toContain("lookup");
  });
});

describe("reasoning replay (DeepSeek, Doubao, Kimi, MiMo, StepFun)", () => {
  it.each([
    "deerflow.models.patched_deepseek:PatchedChatDeepSeek",
    "deerflow.models.patched_mimo:PatchedChatMiMo",
    "deerflow.models.patched_stepfun:PatchedChatStepFun",
  ])(
    "%s sends reasoning_content back on earlier answers and reads it from the stream",
    async (use) => {
      fake.answer({
        deltas: [
          { role: "assistant", reasoning_content: "Think" },
          { reasoning_content: "ing." },
          { content: "Done." },
        ],
      });
      const answer = await streamed(
        await modelFor(use, {
          supports_thinking: true,
          when_thinking_enabled: { extra_body: { thinking: { type: "enabled" } } },
        }),
        historyWithReasoning(),
      );
      expect(answer.additional_kwargs.reasoning_content).toBe("Thinking.");
      expect(sentMessages()[1]).toMatchObject({
        role: "assistant",
        reasoning_content: "I should search.",
      });
      expect(lastBody().thinking).toEqual({ type: "enabled" });
    },
  );

  it("plain ChatOpenAI does not replay reasoning_content", async () => {
    fake.answer({ deltas: [{ role: "assistant", content: "Done." }] });
    await streamed(await modelFor("langchain_openai:ChatOpenAI"), historyWithReasoning());
    expect(sentMessages()[1]).not.toHaveProperty("reasoning_content");
  });

  it("StepFun's `reasoning` field is read as reasoning_content (whole answers too)", async () => {
    fake.answer({ message: { role: "assistant", content: "Done.", reasoning: "Because." } });
    const model = await modelFor("deerflow.models.patched_stepfun:PatchedChatStepFun");
    const answer = await model.invoke([new HumanMessage("hi")]);
    expect(answer.additional_kwargs.reasoning_content).toBe("Because.");
  });
});

describe("MiniMax", () => {
  it("asks for reasoning_split, drops user names, reads reasoning_details", async () => {
    fake.answer({
      deltas: [
        { role: "assistant", reasoning_details: [{ type: "reasoning.text", text: "Hmm, " }] },
        { reasoning_details: [{ type: "reasoning.text", text: "yes." }] },
        { content: "Answer." },
      ],
    });
    const answer = await streamed(
      await modelFor("deerflow.models.patched_minimax:PatchedChatMiniMax"),
      historyWithReasoning(),
    );
    expect(answer.additional_kwargs.reasoning_content).toBe("Hmm, yes.");
    expect(lastBody().reasoning_split).toBe(true);
    for (const message of sentMessages().filter((m) => m.role === "user")) {
      expect(message).not.toHaveProperty("name");
    }
  });

  it("inline <think> in a whole answer moves to reasoning_content", async () => {
    fake.answer({ message: { role: "assistant", content: "<think>Ponder.</think>\nAnswer." } });
    const model = await modelFor("deerflow.models.patched_minimax:PatchedChatMiniMax");
    const answer = await model.invoke([new HumanMessage("hi")]);
    expect(answer.content).toBe("Answer.");
    expect(answer.additional_kwargs.reasoning_content).toBe("Ponder.");
  });
});

describe("vLLM", () => {
  it("reads and replays `reasoning`; renames chat_template_kwargs.thinking; no cumulative flag sent", async () => {
    fake.answer({ deltas: [{ role: "assistant", reasoning: "Plan." }, { content: "Go." }] });
    const answer = await streamed(
      await modelFor("deerflow.models.vllm_provider:VllmChatModel", {
        cumulative_stream_usage: true,
        supports_thinking: true,
        when_thinking_enabled: { extra_body: { chat_template_kwargs: { thinking: true } } },
      }),
      historyWithReasoning(),
    );
    expect(answer.additional_kwargs.reasoning_content).toBe("Plan.");
    const body = lastBody();
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: true });
    expect(body).not.toHaveProperty("cumulative_stream_usage");
    expect(sentMessages()[1]).toMatchObject({ role: "assistant", reasoning: "I should search." });
  });
});

describe("Gemini and OpenAI gateways", () => {
  it("thought signatures of earlier tool calls go back verbatim", async () => {
    // As a Gemini gateway sends it: the signature beside the standard fields.
    const rawCall = {
      id: "call_0",
      type: "function" as const,
      function: { name: "lookup", arguments: '{"query":"fawn"}' },
    };
    Object.assign(rawCall, { thought_signature: "sig-123" });
    const history: BaseMessage[] = [
      new HumanMessage("find fawn"),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "call_0", name: "lookup", args: { query: "fawn" }, type: "tool_call" }],
        additional_kwargs: { tool_calls: [rawCall] },
      }),
      new ToolMessage({ content: "found", tool_call_id: "call_0" }),
    ];
    fake.answer({ deltas: [{ role: "assistant", content: "Done." }] });
    await streamed(await modelFor("deerflow.models.patched_openai:PatchedChatOpenAI"), history);
    const calls = sentMessages()[1]?.tool_calls;
    expect(calls).toEqual([
      expect.objectContaining({ id: "call_0", thought_signature: "sig-123" }),
    ]);
  });

  it("gemini_api_key is the key, never a request field", async () => {
    fake.answer({});
    const model = await modelFor("langchain_google_genai:ChatGoogleGenerativeAI", {
      api_key: undefined,
      gemini_api_key: "g-key",
    });
    await model.invoke([new HumanMessage("hi")]);
    expect(lastBody()).not.toHaveProperty("gemini_api_key");
  });
});

describe("Ollama", () => {
  it("num_predict is max_tokens; reasoning: false turns thinking off; `reasoning` is read", async () => {
    fake.answer({ message: { role: "assistant", content: "Hi.", reasoning: "Short." } });
    const model = await modelFor("langchain_ollama:ChatOllama", {
      num_predict: 256,
      reasoning: false,
    });
    const answer = await model.invoke([new HumanMessage("hi")]);
    expect(answer.additional_kwargs.reasoning_content).toBe("Short.");
    const body = lastBody();
    expect(body.max_tokens).toBe(256);
    expect(body.reasoning_effort).toBe("none");
    expect(body).not.toHaveProperty("num_predict");
    expect(body).not.toHaveProperty("reasoning");
  });
});

describe("MindIE", () => {
  it("tool traffic is sent as template text and a streamed call with tools is fetched whole", async () => {
    fake.answer({ message: XML_TOOL_CALL });
    await streamed(
      await modelFor("deerflow.models.mindie_provider:MindIEChatModel", { read_timeout: 60 }),
      historyWithReasoning(),
    );
    const body = lastBody();
    expect(body.stream).toBe(false);
    const messages = sentMessages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
    expect(messages[1]?.content).toContain("<tool_call> <function=lookup>");
    expect(messages[1]).not.toHaveProperty("tool_calls");
    expect(messages[2]?.content).toBe("<tool_response>\nfound\n</tool_response>");
  });

  it("parses nested and typed parameters; escaped newlines outside code are decoded", async () => {
    const parsed = parseToolCalls(
      'Hi <tool_call> <function=run> <parameter=n>3</parameter> <parameter=opts>{"a":1}</parameter> </function> </tool_call> bye',
    );
    expect(parsed.text).toBe("Hi  bye");
    expect(parsed.calls[0]).toMatchObject({ name: "run", args: { n: 3, opts: { a: 1 } } });
    fake.answer({ message: { role: "assistant", content: "a\\nb ```x\\ny```" } });
    const model = await modelFor("deerflow.models.mindie_provider:MindIEChatModel");
    const answer = await model.invoke([new HumanMessage("hi")]);
    expect(answer.content).toBe("a\nb ```x\\ny```");
  });
});
