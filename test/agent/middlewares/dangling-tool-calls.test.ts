import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  INTERRUPTED_TOOL_RESULT,
  repairToolCallHistory,
} from "../../../src/agent/middlewares/dangling-tool-calls/dangling-tool-call-middleware.js";
import { createTestAgent, type TestAgent, typesOf } from "./harness.js";

const lookup = tool(async () => "found it", {
  name: "lookup",
  description: "looks something up",
  schema: z.object({ query: z.string() }),
});

const script = [
  { match: "^look", turns: [{ tool_calls: [{ name: "lookup", args: { query: "x" } }] }] },
  { match: "^never mind", turns: [{ content: "Fine, skipping the lookup." }] },
];

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("DanglingToolCallMiddleware", () => {
  it("an interrupted tool call gets a synthetic error result in the next request, not in the thread", async () => {
    agent = await createTestAgent({ script, tools: [lookup] });
    // The first run stops before its tool runs: the thread keeps an unanswered tool call.
    const interrupted = await agent.run("t-dangling", "look it up", { interruptBefore: ["tools"] });
    expect(typesOf(interrupted.messages)).toEqual(["human", "ai"]);
    const call = (interrupted.messages[1] as AIMessage).tool_calls?.[0];

    const state = await agent.run("t-dangling", "never mind");

    const request = agent.requests.lead.at(-1)?.messages ?? [];
    expect(typesOf(request)).toEqual(["human", "ai", "tool", "human"]);
    const synthetic = request[2];
    expect(ToolMessage.isInstance(synthetic) && synthetic.tool_call_id).toBe(call?.id);
    expect(synthetic?.content).toBe(INTERRUPTED_TOOL_RESULT);
    expect(ToolMessage.isInstance(synthetic) && synthetic.status).toBe("error");
    // The thread itself is not rewritten; only requests are repaired.
    expect(typesOf(state.messages)).toEqual(["human", "ai", "human", "ai"]);
    expect(state.messages.at(-1)?.content).toBe("Fine, skipping the lookup.");
    expect(agent.evidence.actions("dangling_tool_call")).toEqual(["repaired_history"]);
  });

  it("drops orphan results and repairs nameless calls and non-object args", () => {
    const history = [
      new HumanMessage("hi"),
      new ToolMessage({ content: "orphan", tool_call_id: "nobody" }),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "c1", name: "", args: {} }],
      }),
      new ToolMessage({ content: "late but fine", tool_call_id: "c1" }),
    ];
    const repaired = repairToolCallHistory(history);
    expect(typesOf(repaired.messages)).toEqual(["human", "ai", "tool"]);
    expect(repaired.dropped).toEqual(["nobody"]);
    expect(repaired.repairedCalls).toBe(1);
    expect((repaired.messages[1] as AIMessage).tool_calls?.[0]?.name).toBe("unknown_tool");
    expect(repaired.answered).toEqual([]);
  });
});
