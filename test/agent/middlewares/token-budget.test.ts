import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseTokenBudgetConfig } from "../../../src/agent/middlewares/token-budget/token-budget-config.js";
import {
  checkBudget,
  TOKEN_CAPPED,
} from "../../../src/agent/middlewares/token-budget/token-budget-middleware.js";
import { ConfigError } from "../../../src/core/errors.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

/** A tool whose long result makes every following request ~300 tokens bigger. */
function bulkyTool(counter: { calls: number }) {
  return tool(
    async () => {
      counter.calls += 1;
      return "x".repeat(1200);
    },
    { name: "fetch_more", description: "fetches more", schema: z.object({ page: z.number() }) },
  );
}

const warnings = (messages: readonly BaseMessage[]) =>
  messages.filter((m) => HumanMessage.isInstance(m) && m.name === "budget_warning");

const forever = [
  { turns: [{ content: "More.", tool_calls: [{ name: "fetch_more", args: { page: 1 } }] }] },
];

describe("TokenBudgetMiddleware", () => {
  it("on: warns once near the limit, then strips the tool calls and ends the run as token_capped", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      script: forever,
      tools: [bulkyTool(counter)],
      sections: {
        token_budget: { enabled: true, max_tokens: 1000 },
        loop_detection: { enabled: false },
      },
    });
    const state = await agent.run("t-budget", "collect everything");

    const answers = state.messages.filter((m): m is AIMessage => AIMessage.isInstance(m));
    const last = answers.at(-1);
    expect(last?.additional_kwargs.stop_reason).toBe(TOKEN_CAPPED);
    expect(last?.tool_calls).toEqual([]);
    expect(String(last?.content)).toMatch(
      /^More\.\n\n\[TOKEN BUDGET EXCEEDED\] This run used \d+ total tokens, over its limit of 1000/,
    );
    expect(counter.calls).toBe(answers.length - 1);
    // One warning, request-only, before the stop.
    const perRequest = agent.requests.lead.map((r) => warnings(r.messages).length);
    expect(perRequest.filter((n) => n > 0)).toHaveLength(1);
    expect(perRequest.at(-1)).toBe(1);
    expect(warnings(state.messages)).toHaveLength(0);
    expect(agent.evidence.actions("token_budget")).toEqual(["budget_warning", TOKEN_CAPPED]);
  });

  it("off (the default): the same conversation runs every tool call", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      script: [
        {
          turns: [
            { content: "More.", tool_calls: [{ name: "fetch_more", args: { page: 1 } }] },
            { content: "More.", tool_calls: [{ name: "fetch_more", args: { page: 2 } }] },
            { content: "More.", tool_calls: [{ name: "fetch_more", args: { page: 3 } }] },
            { content: "Done." },
          ],
        },
      ],
      tools: [bulkyTool(counter)],
    });
    const state = await agent.run("t-budget-off", "collect everything");
    expect(counter.calls).toBe(3);
    expect(state.messages.at(-1)?.content).toBe("Done.");
    expect(agent.evidence.actions("token_budget")).toEqual([]);
  });

  it("counts only the run's own answers, and the tightest of total/input/output", () => {
    const config = parseTokenBudgetConfig({
      enabled: true,
      max_tokens: 1000,
      max_output_tokens: 100,
    });
    const answer = (id: string, input: number, output: number) =>
      new AIMessage({
        id,
        content: "",
        usage_metadata: {
          input_tokens: input,
          output_tokens: output,
          total_tokens: input + output,
        },
      });
    const messages = [answer("old", 900, 90), answer("new", 100, 85)];
    expect(checkBudget(messages, new Set(["old"]), config)).toMatchObject({
      level: "warn",
      limit: "output",
      used: 85,
    });
    expect(checkBudget(messages, new Set(), config)).toMatchObject({
      level: "stop",
      limit: "output",
    });
  });

  it("a threshold pair the wrong way round names the key", () => {
    expect(() => parseTokenBudgetConfig({ warn_threshold: 0.9, hard_stop_threshold: 0.5 })).toThrow(
      ConfigError,
    );
    expect(() => parseTokenBudgetConfig({ warn_threshold: 0.9, hard_stop_threshold: 0.5 })).toThrow(
      /token_budget\.hard_stop_threshold: hard_stop_threshold must be >= warn_threshold/,
    );
  });
});
