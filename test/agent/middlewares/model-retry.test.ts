import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk } from "@langchain/core/outputs";
import { afterEach, describe, expect, it } from "vitest";
import {
  createModelRetryMiddleware,
  ERROR_FALLBACK_KEY,
} from "../../../src/agent/middlewares/model-retry/model-retry-middleware.js";
import { isTransientModelError } from "../../../src/agent/middlewares/model-retry/transient-errors.js";
import { parseScript } from "../../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../../src/agent/scripted/scripted-chat-model.js";
import { Latch, within } from "../../helpers/latch.js";
import { createTestAgent, type TestAgent } from "./harness.js";

/** The scripted model, failing its first `failures` lead-agent calls with a provider-like error. */
class FlakyModel extends ScriptedChatModel {
  calls = 0;

  constructor(
    private failures: number,
    private readonly error: () => Error,
  ) {
    super({ script: parseScript([{ turns: [{ content: "Recovered answer." }] }], "flaky") });
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    this.calls += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw this.error();
    }
    yield* super._streamResponseChunks(messages, options, runManager);
  }
}

function providerError(status: number, message: string): Error {
  return Object.assign(new Error(message), {
    status,
    name: status === 429 ? "RateLimitError" : "APIError",
  });
}

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("LLMErrorHandlingMiddleware (model retry)", () => {
  it("retries transient failures with exponential backoff, then answers", async () => {
    const delays: number[] = [];
    const model = new FlakyModel(2, () => providerError(429, "Rate limit reached"));
    agent = await createTestAgent({
      model,
      sections: { title: { enabled: false } },
      middlewareOptions: {
        modelRetry: {
          initialDelayMs: 100,
          sleep: async (ms) => {
            delays.push(ms);
          },
        },
      },
    });
    const state = await agent.run("t-retry", "hello");
    expect(state.messages.at(-1)?.content).toBe("Recovered answer.");
    expect(model.calls).toBe(3);
    expect(delays).toEqual([100, 200]);
    expect(agent.evidence.actions("model_retry")).toEqual(["retry", "retry"]);
  });

  it("gives up after the last retry with a flagged assistant message; the run still ends cleanly", async () => {
    const model = new FlakyModel(99, () => providerError(503, "Service Unavailable"));
    agent = await createTestAgent({
      model,
      sections: { title: { enabled: false } },
      middlewareOptions: { modelRetry: { maxRetries: 2, sleep: async () => undefined } },
    });
    const state = await agent.run("t-fallback", "hello");
    const last = state.messages.at(-1);
    expect(last?.getType()).toBe("ai");
    expect(last?.additional_kwargs[ERROR_FALLBACK_KEY]).toBe(true);
    expect(String(last?.content)).toMatch(
      /could not get an answer from the model after 3 attempts/,
    );
    expect(model.calls).toBe(3);
    expect(agent.evidence.actions("model_retry")).toEqual(["retry", "retry", "error_fallback"]);
  });

  it("a permanent error is not retried", async () => {
    const model = new FlakyModel(1, () =>
      providerError(401, "Incorrect API key provided: sk-abcdef1234567890"),
    );
    agent = await createTestAgent({ model, sections: { title: { enabled: false } } });
    const state = await agent.run("t-permanent", "hello");
    expect(model.calls).toBe(1);
    const last = state.messages.at(-1);
    expect(last?.additional_kwargs[ERROR_FALLBACK_KEY]).toBe(true);
    // The error text reaches the user without the key.
    expect(String(last?.content)).not.toContain("sk-abcdef1234567890");
  });

  it("cancellation during the backoff ends the run instead of producing a fallback", async () => {
    const sleeping = new Latch();
    const model = new FlakyModel(99, () => providerError(500, "boom"));
    agent = await createTestAgent({
      model,
      middlewares: [
        createModelRetryMiddleware({
          sleep: (_ms, signal) =>
            new Promise<void>((_resolve, reject) => {
              sleeping.set();
              signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
            }),
        }),
      ],
    });
    const controller = new AbortController();
    const run = agent.run("t-cancel", "hello", { signal: controller.signal });
    run.catch(() => undefined);
    await within(sleeping.wait(), 5000, "never backed off");
    controller.abort(new Error("cancelled by test"));
    await expect(within(run, 5000, "run outlived its cancellation")).rejects.toThrow();
  });

  it("classifies provider errors", () => {
    expect(isTransientModelError(providerError(429, "x"))).toBe(true);
    expect(isTransientModelError(providerError(502, "x"))).toBe(true);
    expect(isTransientModelError(providerError(400, "rate limit"))).toBe(false);
    expect(isTransientModelError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransientModelError(new Error("Request timed out."))).toBe(true);
    expect(isTransientModelError(new Error("Invalid schema"))).toBe(false);
  });
});
