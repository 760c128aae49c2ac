import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseLeadMiddlewareSettings } from "../../../src/agent/middlewares/lead-middlewares.js";
import { ConfigError } from "../../../src/core/errors.js";
import { createTestAgent, type TestAgent } from "./harness.js";

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

function countingTool(name: string, counter: Record<string, number>) {
  return tool(
    async () => {
      counter[name] = (counter[name] ?? 0) + 1;
      return "ran";
    },
    { name, description: name, schema: z.object({ command: z.string() }) },
  );
}

const SCRIPT = [
  {
    turns: [
      {
        tool_calls: [
          { name: "bash", args: { command: "rm -rf /" } },
          { name: "ls", args: { command: "." } },
        ],
      },
      { content: "Done." },
    ],
  },
];

const ALLOWLIST = "deerflow.guardrails.builtin:AllowlistProvider";

describe("GuardrailMiddleware", () => {
  it("on: a denied tool gets an error result and never runs; others run", async () => {
    const counter: Record<string, number> = {};
    agent = await createTestAgent({
      script: SCRIPT,
      tools: [countingTool("bash", counter), countingTool("ls", counter)],
      sections: {
        guardrails: {
          enabled: true,
          provider: { use: ALLOWLIST, config: { denied_tools: ["bash"] } },
        },
      },
    });
    const state = await agent.run("t-guard", "clean up");
    expect(counter).toEqual({ ls: 1 });
    const denied = state.messages.find((m) => ToolMessage.isInstance(m) && m.name === "bash");
    expect(denied?.content).toBe(
      "Guardrail denied: tool 'bash' was blocked (oap.tool_not_allowed). Reason: tool 'bash' is denied. Choose an alternative approach.",
    );
    expect(JSON.stringify(agent.evidence.entries)).not.toContain("rm -rf");
    expect(agent.evidence.actions("guardrail")).toEqual(["denied"]);
  });

  it("an allowlist lets only its tools run (an empty one allows none)", async () => {
    const counter: Record<string, number> = {};
    agent = await createTestAgent({
      script: SCRIPT,
      tools: [countingTool("bash", counter), countingTool("ls", counter)],
      sections: {
        guardrails: {
          enabled: true,
          provider: { use: "allowlist", config: { allowed_tools: [] } },
        },
      },
    });
    await agent.run("t-allow", "clean up");
    expect(counter).toEqual({});
  });

  it("off (the default): every tool runs", async () => {
    const counter: Record<string, number> = {};
    agent = await createTestAgent({
      script: SCRIPT,
      tools: [countingTool("bash", counter), countingTool("ls", counter)],
    });
    await agent.run("t-guard-off", "clean up");
    expect(counter).toEqual({ bash: 1, ls: 1 });
  });

  it("a provider class Fawn cannot load stops start-up instead of running unguarded", () => {
    const load = (guardrails: unknown) => () => parseLeadMiddlewareSettings({ guardrails });
    expect(
      load({
        enabled: true,
        provider: { use: "aport_guardrails.providers.generic:OAPGuardrailProvider" },
      }),
    ).toThrow(ConfigError);
    expect(load({ enabled: true })).toThrow(/guardrails\.provider is not set/);
    expect(load({ enabled: false, provider: { use: "my:Custom" } })).not.toThrow();
  });
});
