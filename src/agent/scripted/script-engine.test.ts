import { describe, expect, it } from "vitest";
import {
  answerFromScript,
  conversationPosition,
  middlewareReply,
  type ScriptMessage,
  splitIntoChunks,
} from "./script-engine.js";
import { parseScript } from "./script-schema.js";

const script = parseScript(
  [
    {
      match: "weather",
      turns: [{ content: "checking", tool_calls: [{ name: "w" }] }, { content: "sunny" }],
    },
    { match: "^stop$", hang: true },
    { turns: [{ content: "fallback" }] },
  ],
  "inline",
);

const human = (text: string, extra: Partial<ScriptMessage> = {}): ScriptMessage => ({
  role: "human",
  text,
  ...extra,
});
const ai: ScriptMessage = { role: "ai", text: "" };
const toolResult: ScriptMessage = { role: "tool", text: "ok" };

describe("script engine", () => {
  it("a rule with when_tools answers only when those tools are bound", () => {
    const planned = parseScript(
      [
        { match: "report", when_tools: ["write_todos"], turns: [{ content: "planning" }] },
        { match: "report", turns: [{ content: "writing" }] },
      ],
      "inline",
    );
    expect(answerFromScript(planned, [human("a report")]).content).toBe("writing");
    expect(answerFromScript(planned, [human("a report")], new Set(["bash"])).content).toBe(
      "writing",
    );
    expect(
      answerFromScript(planned, [human("a report")], new Set(["write_todos", "bash"])).content,
    ).toBe("planning");
  });

  it("the first matching rule answers, case-insensitively; a rule without match catches all", () => {
    expect(answerFromScript(script, [human("WEATHER in Paris?")]).ruleIndex).toBe(0);
    expect(answerFromScript(script, [human("stop")]).hang).toBe(true);
    expect(answerFromScript(script, [human("anything")]).content).toBe("fallback");
  });

  it("the turn is the number of AI messages after the latest user message", () => {
    const history = [human("weather?"), ai, toolResult];
    expect(answerFromScript(script, history).content).toBe("sunny");
    // Exhausted: the last turn repeats.
    expect(answerFromScript(script, [...history, ai, toolResult]).content).toBe("sunny");
    // A new user message starts again at turn 0 and is matched on its own text.
    expect(answerFromScript(script, [...history, ai, human("weather again")]).content).toBe(
      "checking",
    );
  });

  it("middleware-injected human messages neither restart the count nor get matched", () => {
    const history = [human("weather?"), ai, toolResult, human("[LOOP]", { name: "loop_warning" })];
    expect(conversationPosition(history)).toMatchObject({ turnIndex: 1, humanIndex: 0 });
    expect(answerFromScript(script, history).content).toBe("sunny");
  });

  it("tool-call ids derive from the conversation position, so replays agree", () => {
    const first = answerFromScript(script, [human("weather")]);
    const again = answerFromScript(script, [human("weather")]);
    expect(first.toolCalls[0]?.id).toBe(again.toolCalls[0]?.id);
    const later = answerFromScript(script, [human("weather"), ai, human("weather")]);
    expect(later.toolCalls[0]?.id).not.toBe(first.toolCalls[0]?.id);
  });

  it("no matching rule gives a visible message, not an error", () => {
    const strict = parseScript([{ match: "^x$", turns: [{ content: "x" }] }], "s.yaml");
    expect(answerFromScript(strict, [human("y")]).content).toMatch(
      /No rule in s.yaml matches: "y"/,
    );
  });

  it("middleware calls get a short deterministic answer; the script may set it", () => {
    expect(
      middlewareReply(script, "middleware:title", [
        human("plan a trip to Lisbon in May please now"),
      ]).content,
    ).toBe("plan a trip to Lisbon in");
    expect(middlewareReply(script, "middleware:memory", [human("x")]).content).toBe("OK");
    const custom = parseScript(
      { rules: [{ turns: [{ content: "a" }] }], middleware_replies: { title: "Custom title" } },
      "inline",
    );
    expect(middlewareReply(custom, "middleware:title", [human("x")]).content).toBe("Custom title");
  });

  it("suggestion and polish calls get well-formed answers", () => {
    const list: unknown = JSON.parse(
      middlewareReply(script, "middleware:suggestions", [human("x")]).content,
    );
    expect(Array.isArray(list) && list.length >= 3).toBe(true);
    const draft = human("Language: en\n\nImprove this draft:\n<draft>\nmake  a chart\n</draft>");
    expect(middlewareReply(script, "middleware:input_polish", [draft]).content).toBe(
      "Make a chart.",
    );
    const done = human("<draft>Is it done?</draft>");
    expect(middlewareReply(script, "middleware:input_polish", [done]).content).toBe("Is it done?");
  });

  it("content streams in several word chunks that join back exactly", () => {
    const text = "Hello there,  world!\nNext line.";
    const chunks = splitIntoChunks(text);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join("")).toBe(text);
  });

  it("invalid scripts are rejected with the place of each problem", () => {
    expect(() => parseScript([{ turns: [] }], "bad.yaml")).toThrow(
      /bad.yaml: 0.turns: a rule needs at least one turn/,
    );
    expect(() => parseScript([{ match: "(", turns: [{ content: "" }] }], "bad.yaml")).toThrow(
      /rule 0 match/,
    );
    expect(() => parseScript([{ turns: [{ text: "typo" }] }], "bad.yaml")).toThrow(/bad.yaml/);
  });
});
