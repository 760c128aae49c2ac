/**
 * Plugins' `beforeModel` hooks in the lead agent's chain: ordered by `order` then registration,
 * their extra messages reach the model call (as hidden notes), and a hook that throws is a
 * diagnostic while the call goes on without it.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createPluginMiddlewares } from "../../../src/agent/middlewares/plugin-middleware/plugin-middleware.js";
import type { MiddlewareRuntime, ModelRequest } from "../../../src/agent/middlewares/types.js";
import type { PluginMiddleware } from "../../../src/extensions/api/index.js";
import { loadExtensions } from "../../../src/extensions/host/index.js";
import { contributing, entry, testPlugin } from "./plugin-fixtures.js";

const runtime: MiddlewareRuntime = {
  config: {},
  threadId: "thread-1",
  runId: "run-1",
  userId: "alice",
  options: {},
  model: () => Promise.reject(new Error("unused")),
  record: () => {},
};

function note(text: string, order?: number): PluginMiddleware {
  return {
    name: text,
    ...(order === undefined ? {} : { order }),
    beforeModel: async (request, context) => ({
      extraMessages: [
        {
          role: "system",
          content: `${text} saw ${request.messages.length} as ${context.principal.userId}`,
        },
      ],
    }),
  };
}

describe("plugin model hooks", () => {
  it("run in order then registration; extra messages reach this model call only; failures are isolated", async () => {
    const extensions = await loadExtensions({
      entries: [entry("one"), entry("two")],
      builtins: {
        one: async () =>
          testPlugin("test.one", contributing({ middlewares: [note("late", 5), note("first")] })),
        two: async () =>
          testPlugin(
            "test.two",
            contributing({
              middlewares: [
                note("second"),
                {
                  name: "broken",
                  order: 1,
                  beforeModel: async () => {
                    throw new Error("hook failed");
                  },
                },
              ],
            }),
          ),
      },
      baseDir: process.cwd(),
    });
    const chain = createPluginMiddlewares(extensions, null);
    expect(chain.map((middleware) => middleware.name)).toEqual([
      "extension:test.one:first",
      "extension:test.two:second",
      "extension:test.two:broken",
      "extension:test.one:late",
    ]);
    const original: BaseMessage[] = [new HumanMessage("hi")];
    const request: ModelRequest = {
      messages: original,
      systemPrompt: undefined,
      tools: [],
      state: { messages: original } as ModelRequest["state"],
    };
    let seen: readonly BaseMessage[] = [];
    const base = async (r: ModelRequest) => {
      seen = r.messages;
      return new AIMessage("ok");
    };
    const handler = chain.reduceRight(
      (next, middleware) => (r: ModelRequest) =>
        middleware.wrapModelCall?.(r, next, runtime) ?? next(r),
      base,
    );
    expect((await handler(request)).content).toBe("ok");
    expect(seen.map((message) => message.content)).toEqual([
      "hi",
      "first saw 1 as alice",
      "second saw 2 as alice",
      "late saw 3 as alice",
    ]);
    expect(seen.slice(1).every((message) => message.name === "plugin_context")).toBe(true);
    expect(original).toHaveLength(1);
    expect(extensions.diagnostics.list()).toEqual([
      expect.objectContaining({
        namespace: "test.two",
        message: "middleware broken: beforeModel failed: hook failed",
      }),
    ]);
  });
});
