import { type AIMessage, ToolMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { buildClarificationRequest } from "../../../src/agent/middlewares/clarification/clarification-request.js";
import { createTestAgent, type TestAgent, typesOf } from "./harness.js";

const ASK = {
  name: "ask_clarification",
  args: {
    question: "Which month do you want to travel?",
    clarification_type: "missing_info",
    context: "Prices differ a lot by season.",
    options: ["May", "June", "<b>June</b>"],
  },
};

const script = [
  {
    match: "plan a trip",
    turns: [
      { content: "I need one detail first.", tool_calls: [ASK] },
      { content: "Should never be reached." },
    ],
  },
  { match: "^may", turns: [{ content: "Great: a 5-day Lisbon trip in May is planned." }] },
];

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("ClarificationMiddleware", () => {
  it("ask_clarification ends the run with the question; the reply continues the thread", async () => {
    agent = await createTestAgent({ script });
    const asked = await agent.run("t-clarify", "Plan a trip to Lisbon");
    expect(agent.requests.lead[0]?.tools).toContain("ask_clarification");

    // The run ended right after the tool step: no second model call.
    expect(typesOf(asked.messages)).toEqual(["human", "ai", "tool"]);
    expect(agent.requests.lead).toHaveLength(1);
    const question = asked.messages.at(-1);
    if (!question || !ToolMessage.isInstance(question)) throw new Error("no clarification message");
    expect(question.name).toBe("ask_clarification");
    expect(question.content).toBe(
      "Prices differ a lot by season.\n\n❓ Which month do you want to travel?\n\n1. May\n2. June",
    );
    const toolCallId = (asked.messages[1] as AIMessage).tool_calls?.[0]?.id;
    expect(question.id).toBe(`clarification:${toolCallId}`);
    expect(question.artifact).toMatchObject({
      human_input: {
        kind: "human_input_request",
        request_id: `clarification:${toolCallId}`,
        input_mode: "choice_with_other",
        options: [
          { id: "option_1", label: "May", value: "May" },
          { id: "option_2", label: "June", value: "June" },
        ],
      },
    });
    const snapshot = await agent.graph.getState({ configurable: { thread_id: "t-clarify" } });
    expect(snapshot.next).toEqual([]);
    expect(agent.evidence.actions("clarification")).toEqual(["asked"]);

    const answered = await agent.run("t-clarify", "May, please");
    expect(typesOf(answered.messages)).toEqual(["human", "ai", "tool", "human", "ai"]);
    expect(answered.messages.at(-1)?.content).toBe("Great: a 5-day Lisbon trip in May is planned.");
    // The model saw its question and the answer.
    const seen = agent.requests.lead.at(-1)?.messages ?? [];
    expect(seen.some((m) => ToolMessage.isInstance(m) && m.name === "ask_clarification")).toBe(
      true,
    );
  });

  it("with disable_clarification the model is told to proceed, and the run goes on", async () => {
    agent = await createTestAgent({ script });
    const state = await agent.run("t-no-ask", "Plan a trip to Lisbon", {
      context: { disable_clarification: true },
    });
    expect(typesOf(state.messages)).toEqual(["human", "ai", "tool", "ai"]);
    expect(String(state.messages[2]?.content)).toMatch(/proceed with your best judgment/);
    expect(state.messages.at(-1)?.content).toBe("Should never be reached.");
  });

  it("non-interactive runs are not offered the tool, and a call anyway does not stop the run", async () => {
    agent = await createTestAgent({ script, run: { nonInteractive: true } });
    const state = await agent.run("t-batch", "Plan a trip to Lisbon");
    expect(agent.requests.lead[0]?.tools).not.toContain("ask_clarification");
    expect(String(state.messages[2]?.content)).toMatch(/proceed with your best judgment/);
    expect(state.messages.at(-1)?.content).toBe("Should never be reached.");
  });

  it("a form is validated as a whole; a bad field drops the form, not the question", () => {
    const form = buildClarificationRequest(
      {
        question: "Trip details?",
        clarification_type: "missing_info",
        fields: [
          { name: "city", label: "City", required: true },
          { name: "month", type: "select", options: ["May", "June"] },
          { name: "budget", type: "select" },
        ],
      },
      "call_1",
    );
    expect(form.payload.input_mode).toBe("form");
    expect(form.payload.version).toBe(2);
    expect(form.payload.fields?.map((f) => [f.name, f.type])).toEqual([
      ["city", "text"],
      ["month", "select"],
      ["budget", "text"],
    ]);
    const bad = buildClarificationRequest(
      { question: "Q?", clarification_type: "suggestion", fields: [{ name: "constructor" }] },
      "call_2",
    );
    expect(bad.payload.input_mode).toBe("free_text");
    expect(bad.text).toBe("💡 Q?");
    expect(
      buildClarificationRequest(
        { question: "Q", options: '["a", {"x": "b"}, "a"]' },
        "c",
      ).payload.options?.map((o) => o.label),
    ).toEqual(["a", "b"]);
  });
});
