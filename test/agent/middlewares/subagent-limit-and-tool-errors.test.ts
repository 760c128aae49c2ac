import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("SubagentLimitMiddleware", () => {
  it("keeps at most max_concurrent task calls per answer and max_total per run", async () => {
    const started: string[] = [];
    const task = tool(
      async (input) => {
        started.push(input.description);
        return `Task Succeeded. Result: ${input.description}`;
      },
      { name: "task", description: "delegate", schema: z.object({ description: z.string() }) },
    );
    const tasks = (names: string[]) =>
      names.map((description) => ({ name: "task", args: { description } }));
    agent = await createTestAgent({
      run: { subagentEnabled: true, maxConcurrentSubagents: 2, maxTotalSubagents: 3 },
      tools: [task],
      script: [
        {
          turns: [
            { tool_calls: tasks(["a", "b", "c"]) },
            { tool_calls: tasks(["d", "e"]) },
            { tool_calls: tasks(["f"]) },
          ],
        },
      ],
    });
    const state = await agent.run("t-sub", "split the work");

    expect(started.sort()).toEqual(["a", "b", "d"]);
    const answers = state.messages.filter((m): m is AIMessage => AIMessage.isInstance(m));
    // The third answer had no budget left: nothing started, and with no calls the turn ended.
    expect(answers.map((m) => (m.tool_calls ?? []).length)).toEqual([2, 1, 0]);
    expect(String(answers[2]?.content)).toMatch(/\[SUBAGENT LIMIT REACHED\]/);
    expect(agent.evidence.actions("subagent_limit")).toEqual([
      "dropped_task_calls",
      "dropped_task_calls",
      "dropped_task_calls",
    ]);
  });
});

describe("ToolErrorHandlingMiddleware", () => {
  it("a throwing tool becomes an error ToolMessage with evidence; the run goes on", async () => {
    const explode = tool(
      async () => {
        throw new RangeError("disk quota");
      },
      { name: "explode", description: "fails", schema: z.object({}) },
    );
    agent = await createTestAgent({
      tools: [explode],
      script: [
        { turns: [{ tool_calls: [{ name: "explode", args: {} }] }, { content: "Recovered." }] },
      ],
    });
    const state = await agent.run("t-err", "try it");
    const result = state.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(result?.status).toBe("error");
    expect(result?.content).toBe(
      "Error: Tool 'explode' failed with RangeError: disk quota. Continue with available context, or choose an alternative tool.",
    );
    expect(state.messages.at(-1)?.content).toBe("Recovered.");
    expect(agent.evidence.entries.find((e) => e.tag === "tool_error")).toMatchObject({
      action: "tool_error_to_message",
      changes: { tool: "explode", error_type: "RangeError" },
    });
  });
});
