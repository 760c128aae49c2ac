import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createTestAgent, type TestAgent, typesOf } from "./harness.js";

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

const script = {
  rules: [
    { match: "^first", turns: [{ content: "Answer one." }] },
    { match: "^second", turns: [{ content: "Answer two." }] },
    { match: "^third", turns: [{ content: "Answer three." }] },
  ],
  middleware_replies: { summarize: "The user asked two questions; both were answered." },
};

describe("SummarizationMiddleware", () => {
  it("over the budget, older messages become one summary message; the kept tail stays verbatim", async () => {
    agent = await createTestAgent({
      script,
      sections: {
        title: { enabled: false },
        summarization: {
          enabled: true,
          trigger: { type: "messages", value: 5 },
          keep: { type: "messages", value: 2 },
        },
      },
    });
    await agent.run("t-sum", "first question");
    await agent.run("t-sum", "second question");
    expect(agent.requests.by("middleware:summarize")).toHaveLength(0);

    const state = await agent.run("t-sum", "third question");

    expect(agent.requests.by("middleware:summarize")).toHaveLength(1);
    expect(typesOf(state.messages)).toEqual(["human", "ai", "human", "ai"]);
    const summary = state.messages[0];
    expect(HumanMessage.isInstance(summary) && summary.name).toBe("summary");
    expect(String(summary?.content)).toContain("The user asked two questions; both were answered.");
    expect(state.messages.slice(1).map((m) => m.content)).toEqual([
      "Answer two.",
      "third question",
      "Answer three.",
    ]);
    expect(state.summary_text).toBe("The user asked two questions; both were answered.");
    // The model answered the third question from the compacted history.
    expect(typesOf(agent.requests.lead.at(-1)?.messages ?? [])).toEqual(["human", "ai", "human"]);
    expect(agent.evidence.entries.find((e) => e.tag === "summarization")).toMatchObject({
      action: "summarized",
      changes: { summarized_messages: 3, kept_messages: 2 },
    });
    // The summarizer saw the old conversation.
    const sent = String(agent.requests.by("middleware:summarize")[0]?.messages.at(-1)?.content);
    expect(sent).toContain("User: first question");
    expect(sent).toContain("Assistant: Answer one.");
  });

  it("an empty summary keeps the history", async () => {
    agent = await createTestAgent({
      script: { ...script, middleware_replies: { summarize: "   " } },
      sections: {
        title: { enabled: false },
        summarization: {
          enabled: true,
          trigger: { type: "messages", value: 3 },
          keep: { type: "messages", value: 1 },
        },
      },
    });
    await agent.run("t-keep", "first question");
    const state = await agent.run("t-keep", "second question");
    expect(typesOf(state.messages)).toEqual(["human", "ai", "human", "ai"]);
    expect(agent.evidence.actions("summarization")).toEqual(["summarize_failed"]);
  });
});
