import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { copyElement, copyTemplateOf, isCloneable } from "./element-clone.js";

const serde = new JsonPlusSerializer();

async function decoded(value: unknown): Promise<unknown> {
  const [type, data] = await serde.dumpsTyped(value);
  return serde.loadsTyped(type, data);
}

/** Every object reachable from `value`. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value !== "object" || value === null || into.has(value)) return into;
  into.add(value);
  for (const key of Reflect.ownKeys(value)) {
    objectsOf((value as Record<string | symbol, unknown>)[key], into);
  }
  return into;
}

/** A copy of a decoded message, typed as the template. */
function copyOf<T>(template: T): T {
  const prepared = copyTemplateOf(template);
  if (prepared === undefined) throw new Error("not copyable");
  return copyElement(prepared) as T;
}

const samples = [
  new HumanMessage({ id: "h-1", content: "What is the weather in Oslo?" }),
  new AIMessage({
    id: "ai-1",
    content: [{ type: "text", text: "Looking it up." }],
    tool_calls: [{ id: "call-1", name: "weather", args: { city: "Oslo", days: [1, 2] } }],
    response_metadata: { model: "scripted", usage: { input: 10, output: 4 } },
    usage_metadata: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
  }),
  new ToolMessage({ id: "t-1", content: "sunny", tool_call_id: "call-1", name: "weather" }),
  { role: "user", content: "a plain object", nested: [{ deep: true }] },
];

describe("copies of decoded elements", () => {
  it.each(samples.map((sample) => [sample.constructor.name, sample]))(
    "equal a fresh decoding of a %s, prototypes and sharing included, and share no object",
    async (_name, sample) => {
      const template = await decoded(sample);
      const prepared = copyTemplateOf(template);
      expect(prepared).toBeDefined();
      const copy = prepared && copyElement(prepared);
      expect(copy).toStrictEqual(await decoded(sample));
      expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(template));
      const shared = objectsOf(template);
      for (const object of objectsOf(copy)) expect(shared.has(object)).toBe(false);
    },
  );

  it("keep a message's fields and its lc_kwargs pointing at the same objects, as decoding does", async () => {
    const template = (await decoded(samples[1])) as AIMessage;
    expect(template.lc_kwargs.tool_calls).toBe(template.tool_calls);
    const copy = copyOf(template);
    expect(copy.lc_kwargs.tool_calls).toBe(copy.tool_calls);
    expect(copy.lc_kwargs.response_metadata).toBe(copy.response_metadata);
  });

  it("leave the template untouched when a copy is changed", async () => {
    const template = (await decoded(samples[1])) as AIMessage;
    const copy = copyOf(template);
    const call = copy.tool_calls?.[0];
    if (call) call.args.city = "Paris";
    copy.content = "changed";
    expect(template.tool_calls?.[0]?.args.city).toBe("Oslo");
    expect(template.content).toEqual([{ type: "text", text: "Looking it up." }]);
  });

  it("are refused for values with hidden state or unusual properties", () => {
    const withAccessor = Object.defineProperty({}, "x", { get: () => 1, enumerable: true });
    const withHidden = Object.defineProperty({}, "x", { value: 1, enumerable: false });
    expect(isCloneable(withAccessor)).toBe(false);
    expect(isCloneable(withHidden)).toBe(false);
    expect(isCloneable({ [Symbol("s")]: 1 })).toBe(false);
    // biome-ignore lint/suspicious/noSparseArray: a hole is the point
    expect(isCloneable([1, , 3])).toBe(false);
    expect(isCloneable({ f: () => 1 })).toBe(false);
  });
});
