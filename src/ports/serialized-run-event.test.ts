import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { toJson } from "../core/json/serialize.js";
import { jsonText, SerializedRunEvent } from "./serialized-run-event.js";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const cyclic: Record<string, unknown> = { name: "loop" };
cyclic.self = cyclic;
let deep: unknown = "leaf";
for (let level = 0; level < 40; level++) deep = { level, next: deep };

const values: Array<[string, unknown]> = [
  ["a plain object", { type: "ai", content: "hi", tool_calls: [], usage: { total: 3 } }],
  [
    "nested arrays with holes and undefined",
    Object.assign(new Array<unknown>(5), {
      0: 1,
      2: undefined,
      3: [null, "x"],
      4: { a: undefined },
    }),
  ],
  ["non-finite numbers and -0", { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 }],
  ["a function in an object and an array", { f: () => 1, list: [() => 2] }],
  ["a Date", { at: new Date("2026-01-02T03:04:05.678Z") }],
  ["a Map and a Set", { map: new Map([["k", 1]]), set: new Set([1, 2]) }],
  ["a bigint", { big: 10n }],
  ["a class instance", { point: new Point(1, 2) }],
  ["an object with its own toJSON", { value: { toJSON: () => "custom", other: 1 } }],
  ["LangChain messages", [new HumanMessage("hello"), new AIMessage({ content: "hi", id: "m1" })]],
  ["a cycle", cyclic],
  ["deep nesting", deep],
  ["undefined", undefined],
  ["null", null],
  ["a symbol in an object", { s: Symbol("x") }],
];

describe("jsonText", () => {
  for (const [label, value] of values) {
    it(`writes what JSON.stringify(toJson(…)) writes for ${label}`, () => {
      expect(jsonText(value)).toBe(JSON.stringify(toJson(value)) ?? "null");
    });
  }
});

describe("SerializedRunEvent", () => {
  it("reads content back as the JSON value toJson makes of it", () => {
    const content = { message: new AIMessage({ content: "hi", id: "m1" }), at: new Date(0) };
    const event = new SerializedRunEvent({
      thread_id: "t",
      run_id: "r",
      event_type: "llm.ai.response",
      category: "message",
      content,
      metadata: {},
      created_at: "2026-01-02T03:04:05.678Z",
      user_id: null,
    });
    expect(event.content).toEqual(toJson(content));
  });
});

describe("SerializedRunEvent across a port", () => {
  const fields = {
    thread_id: "t",
    run_id: "r",
    event_type: "llm.ai.response",
    category: "message",
    metadata: { caller: "lead_agent" },
    created_at: "2026-01-02T03:04:05.678Z",
    user_id: "u1",
  };
  /** `fromWire` after a structured clone, as the other end of a MessagePort gets it. */
  const acrossPort = (event: SerializedRunEvent) =>
    SerializedRunEvent.fromWire(structuredClone(event.toWire()));

  it("hands out the texts written before it crossed, and the same fields", () => {
    const event = new SerializedRunEvent({
      ...fields,
      content: { message: new AIMessage({ content: "hi", id: "m1" }) },
    });
    const rebuilt = acrossPort(event);
    expect(rebuilt.contentText()).toBe(event.contentText());
    expect(rebuilt.metadataText()).toBe(event.metadataText());
    expect(rebuilt.content).toEqual(event.content);
    expect({ ...rebuilt }).toEqual({ ...event });
  });

  it("keeps a string content a string, with no text", () => {
    const rebuilt = acrossPort(new SerializedRunEvent({ ...fields, content: "plain words" }));
    expect(rebuilt.content).toBe("plain words");
    expect(rebuilt.contentText()).toBeUndefined();
  });

  it("carries a content or metadata set after construction as the value, without a text", () => {
    const event = new SerializedRunEvent({ ...fields, content: { n: 1 } });
    event.content = { n: 2 };
    event.metadata = { caller: "changed" };
    const rebuilt = acrossPort(event);
    expect(rebuilt.content).toEqual({ n: 2 });
    expect(rebuilt.contentText()).toBeUndefined();
    expect(rebuilt.metadata).toEqual({ caller: "changed" });
    expect(rebuilt.metadataText()).toBeUndefined();
  });
});
