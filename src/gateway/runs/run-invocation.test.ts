import { describe, expect, it } from "vitest";
import { buildInvocation, graphStreamModes } from "./run-invocation.js";
import { runCreateBody } from "./run-schemas.js";

const ctx = { threadId: "t1", userId: "u1", maxRecursionLimit: 50 };

describe("run invocation", () => {
  it("maps API stream modes to graph modes", () => {
    expect(graphStreamModes(undefined)).toEqual(["values"]);
    expect(graphStreamModes("messages-tuple")).toEqual(["messages"]);
    expect(graphStreamModes(["values", "messages-tuple", "values"])).toEqual([
      "values",
      "messages",
    ]);
    expect(graphStreamModes([])).toEqual(["values"]);
  });

  it("builds LangGraph.js options and stamps server-owned keys", () => {
    const body = runCreateBody.parse({
      input: { messages: [] },
      config: {
        recursion_limit: 500,
        tags: ["a"],
        configurable: { model_name: "m", thread_id: "evil", user_id: "evil", __secret: 1 },
      },
      context: { mode: "fast", model_name: "ignored" },
      checkpoint: { checkpoint_id: "c1", checkpoint_ns: "" },
      checkpoint_during: false,
      interrupt_before: ["x"],
      webhook: "https://example.com/hook",
    });
    const invocation = buildInvocation(body, ctx);
    expect(invocation.config).toEqual({
      configurable: {
        mode: "fast",
        model_name: "m",
        user_id: "u1",
        checkpoint_id: "c1",
        checkpoint_ns: "",
      },
      recursionLimit: 50,
      tags: ["a"],
      durability: "exit",
      context: { mode: "fast", model_name: "ignored", user_id: "u1" },
    });
    expect(invocation.interrupt_before).toEqual(["x"]);
    expect(invocation.webhook).toBe("https://example.com/hook");
    expect(invocation.stream_mode).toEqual(["values"]);
  });

  it("keeps a command instead of input", () => {
    const invocation = buildInvocation(runCreateBody.parse({ command: { resume: "yes" } }), ctx);
    expect(invocation.command).toEqual({ resume: "yes" });
    expect(invocation.input).toBeNull();
  });

  it("refuses unknown fields and unsupported modes", () => {
    expect(runCreateBody.safeParse({ nope: 1 }).success).toBe(false);
    expect(runCreateBody.safeParse({ stream_mode: "events" }).success).toBe(false);
    expect(runCreateBody.safeParse({ webhook: "file:///etc/passwd" }).success).toBe(false);
  });
});
