/**
 * `messageToDict` reads a message's fields directly instead of going through LangChain's
 * `toDict()`; these pin that both give the same dict for every message kind the runtime streams.
 */
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
  ToolMessageChunk,
} from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { messageToDict, toJson } from "./serialize.js";

/** What LangChain's own serializer produces, converted the same way. */
function viaToDict(message: BaseMessage): unknown {
  return { ...(toJson(message.toDict().data) as Record<string, unknown>), type: message.getType() };
}

const messages: Array<[string, BaseMessage]> = [
  [
    "a human message with blocks",
    new HumanMessage({ content: [{ type: "text", text: "hi" }], id: "h1", name: "ann" }),
  ],
  ["a system message", new SystemMessage("be brief")],
  [
    "an AI message with tool calls and usage",
    new AIMessage({
      content: "",
      id: "a1",
      tool_calls: [{ id: "c1", name: "bash", args: { command: "ls" }, type: "tool_call" }],
      usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      response_metadata: { model_name: "m", finish_reason: "tool_calls" },
      additional_kwargs: { reasoning_content: "…" },
    }),
  ],
  [
    "an AI chunk with tool call chunks",
    new AIMessageChunk({
      content: "wor",
      id: "run-1",
      tool_call_chunks: [
        { id: "c1", name: "bash", args: '{"comm', index: 0, type: "tool_call_chunk" },
      ],
    }),
  ],
  ["a plain AI chunk", new AIMessageChunk({ content: "word " })],
  [
    "a tool message with an artifact and status",
    new ToolMessage({
      content: "ok",
      tool_call_id: "c1",
      name: "bash",
      artifact: { bytes: 3 },
      status: "success",
    }),
  ],
  ["a tool message chunk", new ToolMessageChunk({ content: "o", tool_call_id: "c1" })],
  ["a remove message", new RemoveMessage({ id: "gone" })],
];

describe("messageToDict", () => {
  for (const [label, message] of messages) {
    it(`matches LangChain's toDict for ${label}`, () => {
      expect(messageToDict(message)).toEqual(viaToDict(message));
    });
  }

  it("converts messages nested in graph output, as toJson always did", () => {
    const chunk = new AIMessageChunk({ content: "hi", id: "x" });
    expect(toJson([chunk, { langgraph_node: "model", at: new Date(0), n: Number.NaN }])).toEqual([
      viaToDict(chunk),
      { langgraph_node: "model", at: "1970-01-01T00:00:00.000Z", n: null },
    ]);
  });
});

describe("toJson", () => {
  it("drops cycles, functions and undefined fields; keeps shared (non-cyclic) values", () => {
    const shared = { k: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared, f: () => 1, u: undefined };
    cyclic.self = cyclic;
    expect(toJson(cyclic)).toEqual({ shared: { k: 1 }, again: { k: 1 }, self: null });
  });

  it("turns Maps, Sets, bigints, errors and bytes into JSON", () => {
    expect(
      toJson({
        map: new Map([["a", 1]]),
        set: new Set([1, 2]),
        big: 10n,
        error: new TypeError("bad"),
        bytes: new Uint8Array([1, 2]),
      }),
    ).toEqual({
      map: { a: 1 },
      set: [1, 2],
      big: "10",
      error: { name: "TypeError", message: "bad" },
      bytes: "AQI=",
    });
  });
});
