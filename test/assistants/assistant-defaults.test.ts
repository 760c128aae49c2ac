/** How a run's body is merged over its assistant's config and context (the run wins). */
import { describe, expect, it } from "vitest";
import { buildInvocation, withAssistantDefaults } from "../../src/gateway/runs/run-invocation.js";

const assistant = {
  config: {
    configurable: { model_name: "a", temperature: 0.1, thread_id: "spoofed" },
    tags: ["assistant"],
    recursion_limit: 5,
    run_name: "assistant-run",
  },
  context: { tz: "UTC", locale: "fr" },
};

describe("withAssistantDefaults", () => {
  it("merges configurable and context key by key and takes other keys whole; the run wins", () => {
    const merged = withAssistantDefaults(
      {
        config: { configurable: { temperature: 0.9 }, tags: ["run"], recursion_limit: null },
        context: { locale: "en" },
      },
      assistant,
    );
    expect(merged.config).toEqual({
      configurable: { model_name: "a", temperature: 0.9, thread_id: "spoofed" },
      tags: ["run"],
      recursion_limit: 5,
      run_name: "assistant-run",
    });
    expect(merged.context).toEqual({ tz: "UTC", locale: "en" });
    // Server-owned keys are dropped whichever side they came from.
    const invocation = buildInvocation(merged, {
      threadId: "t",
      userId: "u",
      maxRecursionLimit: 100,
    });
    expect(invocation.config).toMatchObject({
      configurable: { model_name: "a", temperature: 0.9, user_id: "u", tz: "UTC", locale: "en" },
      recursionLimit: 5,
      tags: ["run"],
      context: { tz: "UTC", locale: "en", user_id: "u" },
    });
    expect(invocation.config?.configurable).not.toHaveProperty("thread_id");
  });

  it("leaves context absent when neither side has one, and ignores malformed assistant keys", () => {
    const merged = withAssistantDefaults(
      { input: null },
      { config: { configurable: "not an object", tags: [1], recursion_limit: "x" }, context: {} },
    );
    expect(merged.config).toEqual({ configurable: {} });
    expect(merged).not.toHaveProperty("context");
  });
});
