import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseLeadMiddlewareSettings } from "../../../src/agent/middlewares/lead-middlewares.js";
import { SAFETY_TERMINATED } from "../../../src/agent/middlewares/safety-finish-reason/safety-finish-reason-middleware.js";
import { parseScript } from "../../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../../src/agent/scripted/scripted-chat-model.js";
import { ConfigError } from "../../../src/core/errors.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

/** The scripted model, with the provider's stop signal replaced as a filtering provider sends it. */
class FilteredModel extends ScriptedChatModel {
  constructor(
    rules: unknown,
    private readonly field: "finish_reason" | "stop_reason",
    private readonly value: string,
  ) {
    super({ script: parseScript(rules, "filtered") });
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for await (const chunk of super._streamResponseChunks(messages, options, runManager)) {
      if ("finish_reason" in chunk.message.response_metadata) {
        Object.assign(chunk.message.response_metadata, { [this.field]: this.value });
      }
      yield chunk;
    }
  }
}

function writeTool(counter: { calls: number }) {
  return tool(
    async () => {
      counter.calls += 1;
      return "written";
    },
    {
      name: "write_file",
      description: "writes",
      schema: z.object({ path: z.string(), content: z.string() }),
    },
  );
}

const truncatedWrite = [
  {
    turns: [
      {
        content: "Writing the report.",
        tool_calls: [
          {
            name: "write_file",
            args: { path: "/mnt/user-data/outputs/r.md", content: "# Half a sent" },
          },
        ],
      },
    ],
  },
];

const lastAnswer = (messages: readonly BaseMessage[]) =>
  messages.filter((m): m is AIMessage => AIMessage.isInstance(m)).at(-1);

describe("SafetyFinishReasonMiddleware", () => {
  it("on (the default): a content_filter stop never runs its tool calls and says why", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      model: new FilteredModel(truncatedWrite, "finish_reason", "content_filter"),
      tools: [writeTool(counter)],
    });
    const state = await agent.run("t-safe", "write the report");
    expect(counter.calls).toBe(0);
    const last = lastAnswer(state.messages);
    expect(last?.tool_calls).toEqual([]);
    expect(String(last?.content)).toMatch(
      /^Writing the report\.\n\nThe model provider stopped this response with a safety signal \(finish_reason=content_filter, detector=openai_compatible_content_filter\)\. Its tool calls were not run/,
    );
    expect(last?.additional_kwargs).toMatchObject({
      stop_reason: SAFETY_TERMINATED,
      safety_termination: {
        suppressed_tool_call_count: 1,
        suppressed_tool_call_names: ["write_file"],
      },
    });
    // Tool arguments (the filtered content) are not in the evidence.
    expect(JSON.stringify(agent.evidence.entries)).not.toContain("Half a sent");
    expect(agent.evidence.actions("safety_termination")).toEqual([SAFETY_TERMINATED]);
  });

  it("Anthropic's refusal with no content gets a note instead of an empty message", async () => {
    agent = await createTestAgent({
      model: new FilteredModel([{ turns: [{ content: "" }] }], "stop_reason", "refusal"),
    });
    const state = await agent.run("t-refusal", "something");
    expect(String(lastAnswer(state.messages)?.content)).toMatch(
      /stop_reason=refusal.*returned no content/,
    );
  });

  it("a stopped answer with text and no tool calls is kept as it is", async () => {
    agent = await createTestAgent({
      model: new FilteredModel(
        [{ turns: [{ content: "Partial answer." }] }],
        "finish_reason",
        "SAFETY",
      ),
    });
    const state = await agent.run("t-partial", "something");
    expect(lastAnswer(state.messages)?.content).toBe("Partial answer.");
  });

  it("off: enabled: false lets the tool calls run", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      model: new FilteredModel(truncatedWrite, "finish_reason", "content_filter"),
      tools: [writeTool(counter)],
      sections: {
        safety_finish_reason: { enabled: false },
        loop_detection: { hard_limit: 2, warn_threshold: 1 },
      },
    });
    await agent.run("t-safe-off", "write the report");
    expect(counter.calls).toBeGreaterThan(0);
  });

  it("configured detectors replace the built-ins, with a provider's own reasons", async () => {
    const counter = { calls: 0 };
    agent = await createTestAgent({
      model: new FilteredModel(truncatedWrite, "finish_reason", "sensitive"),
      tools: [writeTool(counter)],
      sections: {
        safety_finish_reason: {
          detectors: [
            {
              use: "deerflow.agents.middlewares.safety_termination_detectors:OpenAICompatibleContentFilterDetector",
              config: { finish_reasons: ["content_filter", "sensitive"] },
            },
          ],
        },
      },
    });
    await agent.run("t-custom", "write the report");
    expect(counter.calls).toBe(0);
  });

  it("a detector class Fawn cannot load, or an empty list, fails at startup by key", () => {
    expect(() =>
      parseLeadMiddlewareSettings({
        safety_finish_reason: { detectors: [{ use: "my_co:WenxinDetector" }] },
      }),
    ).toThrow(ConfigError);
    expect(() =>
      parseLeadMiddlewareSettings({
        safety_finish_reason: { detectors: [{ use: "my_co:WenxinDetector" }] },
      }),
    ).toThrow(/"my_co:WenxinDetector" is not a built-in detector/);
    expect(() => parseLeadMiddlewareSettings({ safety_finish_reason: { detectors: [] } })).toThrow(
      /safety_finish_reason\.detectors/,
    );
  });
});
