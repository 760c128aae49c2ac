import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseLoopDetectionConfig } from "../../../src/agent/middlewares/loop-detection/loop-detection-config.js";
import {
  findLoop,
  LOOP_CAPPED,
} from "../../../src/agent/middlewares/loop-detection/loop-detection-middleware.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

function searchTool(counter: { calls: number }) {
  return tool(
    async () => {
      counter.calls += 1;
      return "no results";
    },
    {
      name: "search",
      description: "web search",
      schema: z.object({ query: z.string(), description: z.string().optional() }),
    },
  );
}

const loopWarnings = (messages: readonly BaseMessage[]) =>
  messages.filter((m) => HumanMessage.isInstance(m) && m.name === "loop_warning");

describe("LoopDetectionMiddleware", () => {
  it("repeating the same call warns at 3, then stops at 5 with stop_reason loop_capped", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      // One turn: the scripted model repeats it forever, like a stuck agent.
      script: [
        {
          turns: [
            {
              content: "Searching again.",
              tool_calls: [{ name: "search", args: { query: "fawn" } }],
            },
          ],
        },
      ],
      tools: [searchTool(counter)],
    });
    const state = await agent.run("t-loop", "find fawn");

    const answers = state.messages.filter((m): m is AIMessage => AIMessage.isInstance(m));
    expect(answers).toHaveLength(5);
    expect(counter.calls).toBe(4);
    const last = answers.at(-1);
    expect(last?.tool_calls).toEqual([]);
    expect(last?.additional_kwargs.stop_reason).toBe(LOOP_CAPPED);
    expect(String(last?.content)).toMatch(
      /^Searching again\.\n\n\[FORCED STOP\] The same tool calls \(search\) were repeated 5 times/,
    );
    // Warnings went to the 4th and 5th requests only, and never into the thread.
    const lead = agent.requests.lead;
    expect(lead.map((request) => loopWarnings(request.messages).length)).toEqual([0, 0, 0, 1, 1]);
    expect(String(loopWarnings(lead[3]?.messages ?? [])[0]?.content)).toMatch(/^\[LOOP DETECTED\]/);
    expect(loopWarnings(state.messages)).toHaveLength(0);
    expect(agent.evidence.actions("loop_detection")).toEqual([
      "loop_warning",
      "loop_warning",
      LOOP_CAPPED,
    ]);
  });

  it("a new user message starts a fresh count", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      script: [{ turns: [{ tool_calls: [{ name: "search", args: { query: "fawn" } }] }] }],
      tools: [searchTool(counter)],
      sections: { loop_detection: { warn_threshold: 2, hard_limit: 3 } },
    });
    await agent.run("t-fresh", "first");
    expect(counter.calls).toBe(2);
    await agent.run("t-fresh", "again");
    expect(counter.calls).toBe(4);
  });

  it("salient args decide sameness; per-tool frequency has its own limits", () => {
    const config = parseLoopDetectionConfig({
      tool_freq_overrides: { bash: { warn: 2, hard_limit: 3 } },
    });
    const answer = (name: string, args: Record<string, unknown>, i: number) =>
      new AIMessage({ content: "", tool_calls: [{ id: `c${i}`, name, args }] });
    const result = (i: number) => new ToolMessage({ content: "ok", tool_call_id: `c${i}` });
    // Same query, different descriptions: the same call.
    const same = [0, 1, 2].flatMap((i) => [
      answer("search", { query: "q", description: `try ${i}` }, i),
      result(i),
    ]);
    expect(findLoop(same, config)).toMatchObject({
      level: "warn",
      reason: "repeated_calls",
      count: 3,
    });
    // Different commands, but bash is used too often.
    const busy = [0, 1, 2].flatMap((i) => [answer("bash", { command: `echo ${i}` }, i), result(i)]);
    expect(findLoop(busy, config)).toMatchObject({
      level: "stop",
      reason: "tool_frequency",
      tools: ["bash"],
    });
    // read_file of nearby ranges is the same work; a distant range is not.
    const reads = [1, 50, 120].flatMap((start, i) => [
      answer(
        "read_file",
        { path: "/mnt/user-data/a.txt", start_line: start, end_line: start + 10 },
        i,
      ),
      result(i),
    ]);
    expect(findLoop(reads, config)?.count).toBe(3);
    const far = [
      ...reads,
      answer("read_file", { path: "/mnt/user-data/a.txt", start_line: 900 }, 9),
    ];
    expect(findLoop(far, config)).toBeNull();
  });
});
