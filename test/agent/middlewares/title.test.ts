import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { cleanTitle } from "../../../src/agent/middlewares/title/title-middleware.js";
import { createTestAgent, type TestAgent, typesOf } from "./harness.js";

const weather = tool(async () => "sunny, 24°C", {
  name: "get_weather",
  description: "weather for a city",
  schema: z.object({ city: z.string() }),
});

const rules = [
  {
    match: "weather",
    turns: [
      { content: "Checking.", tool_calls: [{ name: "get_weather", args: { city: "Lisbon" } }] },
      { content: "It is sunny in Lisbon." },
    ],
  },
  { turns: [{ content: "Anything else?" }] },
];

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("TitleMiddleware", () => {
  it("titles the thread after the first answer with a middleware call that consumes no turn", async () => {
    agent = await createTestAgent({ script: rules, tools: [weather] });
    const state = await agent.run("t-title", "What is the weather like in Lisbon this weekend?");

    // The scripted default title: the first six words of the user's message.
    expect(state.title).toBe("What is the weather like in");
    // The conversation played exactly as scripted: the title call took no turn.
    expect(typesOf(state.messages)).toEqual(["human", "ai", "tool", "ai"]);
    expect(state.messages.at(-1)?.content).toBe("It is sunny in Lisbon.");
    const titleCalls = agent.requests.by("middleware:title");
    expect(titleCalls).toHaveLength(1);
    expect(titleCalls[0]?.tags).toContain("nostream");
    expect(titleCalls[0]?.tags).not.toContain("lead_agent");
    expect(agent.requests.lead).toHaveLength(2);
    expect(agent.evidence.entries.find((e) => e.tag === "title")).toMatchObject({
      hook: "afterModel",
      action: "set_title",
      changes: { title: "What is the weather like in", source: "model" },
    });

    // Later exchanges keep the title and make no more title calls.
    await agent.run("t-title", "thanks");
    expect(agent.requests.by("middleware:title")).toHaveLength(1);
  });

  it("uses the script's title reply, cleaned and capped", async () => {
    agent = await createTestAgent({
      script: {
        rules,
        middleware_replies: { title: '"Lisbon weekend weather check, quickly please."' },
      },
      tools: [weather],
      sections: { title: { max_words: 4 } },
    });
    const state = await agent.run("t-title-2", "weather in Lisbon?");
    expect(state.title).toBe("Lisbon weekend weather check");
  });

  it("can be turned off", async () => {
    agent = await createTestAgent({
      script: rules,
      tools: [weather],
      sections: { title: { enabled: false } },
    });
    const state = await agent.run("t-untitled", "weather in Lisbon?");
    expect(state.title).toBeNull();
    expect(agent.requests.by("middleware:title")).toHaveLength(0);
  });

  it("cleans model titles", () => {
    const limits = { max_words: 6, max_chars: 20 };
    expect(cleanTitle("Title: “Quarterly revenue report”.", limits)).toBe("Quarterly revenue...");
    expect(cleanTitle("\n\n**Trip plan**\nmore", limits)).toBe("Trip plan");
  });
});
