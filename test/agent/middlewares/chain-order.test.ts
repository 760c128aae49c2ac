import { afterEach, describe, expect, it } from "vitest";
import { createClarificationMiddleware } from "../../../src/agent/middlewares/clarification/clarification-middleware.js";
import type { AgentMiddleware } from "../../../src/agent/middlewares/types.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

/** A middleware that only writes down when each of its hooks runs. */
function tracer(name: string, log: string[]): AgentMiddleware {
  return {
    name,
    tag: name,
    async beforeAgent() {
      log.push(`${name}.beforeAgent`);
      return undefined;
    },
    async beforeModel() {
      log.push(`${name}.beforeModel`);
      return undefined;
    },
    async wrapModelCall(request, next) {
      log.push(`${name}.wrapModelCall:in`);
      const answer = await next(request);
      log.push(`${name}.wrapModelCall:out`);
      return answer;
    },
    async afterModel() {
      log.push(`${name}.afterModel`);
      return undefined;
    },
    async wrapToolCall(request, next) {
      log.push(`${name}.wrapToolCall:in`);
      const result = await next(request);
      log.push(`${name}.wrapToolCall:out`);
      return result;
    },
    async afterAgent() {
      log.push(`${name}.afterAgent`);
      return undefined;
    },
  };
}

describe("middleware dispatch order", () => {
  it("before* in list order, after* reversed, first wrapper outermost; afterAgent also after a clarification", async () => {
    const log: string[] = [];
    agent = await createTestAgent({
      script: [
        {
          turns: [
            {
              tool_calls: [
                {
                  name: "ask_clarification",
                  args: { question: "Which?", clarification_type: "ambiguous_requirement" },
                },
              ],
            },
          ],
        },
      ],
      middlewares: [tracer("a", log), tracer("b", log), createClarificationMiddleware()],
    });
    const state = await agent.run("t-order", "do the thing");

    expect(log).toEqual([
      "a.beforeAgent",
      "b.beforeAgent",
      "a.beforeModel",
      "b.beforeModel",
      "a.wrapModelCall:in",
      "b.wrapModelCall:in",
      "b.wrapModelCall:out",
      "a.wrapModelCall:out",
      "b.afterModel",
      "a.afterModel",
      "a.wrapToolCall:in",
      "b.wrapToolCall:in",
      "b.wrapToolCall:out",
      "a.wrapToolCall:out",
      "b.afterAgent",
      "a.afterAgent",
    ]);
    expect(state.messages.at(-1)?.name).toBe("ask_clarification");
  });
});
