/**
 * Plugin model tools as the lead agent gets them: the exported name, payload checks (schema and
 * size), the run's identity in the ToolContext, the run handle, the timeout, result encoding and
 * the masked error messages, each failure a `tool` diagnostic, none of them a thrown error.
 */
import { createHash } from "node:crypto";
import type { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import {
  createPluginTools,
  MAX_PLUGIN_TOOL_PAYLOAD_BYTES,
  PLUGIN_TOOL_MASK,
  pluginToolName,
} from "../../../src/agent/tools/plugin-tools.js";
import { AgentRunError } from "../../../src/core/errors.js";
import type { AgentRunsProvider } from "../../../src/extensions/agent-runs-provider.js";
import type { ToolContext } from "../../../src/extensions/api/index.js";
import { type LoadedExtensions, loadExtensions } from "../../../src/extensions/host/index.js";
import {
  contributing,
  entry,
  fakeAgentRuns,
  OBJECT_SCHEMA,
  testPlugin,
} from "./plugin-fixtures.js";

const RUN_CONFIG = { configurable: { user_id: "alice", thread_id: "thread-1", run_id: "run-1" } };

async function toolsOf(
  handler: (payload: Record<string, unknown>, context: ToolContext) => Promise<unknown>,
  options: { agentRuns?: AgentRunsProvider | null; timeoutMs?: number } = {},
): Promise<{ tool: StructuredToolInterface; extensions: LoadedExtensions }> {
  const extensions = await loadExtensions({
    entries: [entry("p", { config: { region: "eu" } })],
    builtins: {
      p: async () =>
        testPlugin(
          "community.agent-teams",
          contributing({
            tools: [
              {
                name: "greet",
                description: "Greets someone.",
                inputSchema: OBJECT_SCHEMA,
                handler,
              },
            ],
          }),
        ),
    },
    baseDir: process.cwd(),
  });
  const [tool] = createPluginTools({
    extensions,
    agentRuns: options.agentRuns ?? null,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (!tool) throw new Error("no tool");
  return { tool, extensions };
}

async function call(
  tool: StructuredToolInterface,
  args: Record<string, unknown>,
): Promise<ToolMessage> {
  return (await tool.invoke(
    { name: tool.name, args, id: "call-1", type: "tool_call" },
    RUN_CONFIG,
  )) as ToolMessage;
}

describe("plugin tool names", () => {
  it("are ext_<namespace>_<name>_<hash>, shortened, and never collide across namespaces", () => {
    const digest = createHash("sha256")
      .update("community.agent-teams:greet")
      .digest("hex")
      .slice(0, 12);
    expect(pluginToolName("community.agent-teams", "greet")).toBe(
      `ext_community_agent_team_greet_${digest}`,
    );
    const long = pluginToolName("a.b", "x".repeat(64));
    expect(long).toMatch(/^ext_a_b_x{25}_[0-9a-f]{12}$/);
    // Same sanitized prefix, different namespaces: the hash keeps them apart.
    expect(pluginToolName("a-b", "t")).not.toBe(pluginToolName("a.b", "t"));
  });
});

describe("plugin tool calls", () => {
  it("the handler gets the validated payload and the run's user, thread, run, settings and handle", async () => {
    const bound: unknown[] = [];
    const provider: AgentRunsProvider = {
      bind: (principal) => {
        bound.push(principal);
        return fakeAgentRuns();
      },
    };
    let seen: ToolContext | undefined;
    const { tool, extensions } = await toolsOf(
      async (payload, context) => {
        seen = context;
        return { greeting: `hello ${String(payload.name)}` };
      },
      { agentRuns: provider },
    );
    expect(tool.name).toBe(pluginToolName("community.agent-teams", "greet"));
    const message = await call(tool, { name: "Bob" });
    expect(message.status).not.toBe("error");
    expect(JSON.parse(String(message.content))).toEqual({ greeting: "hello Bob" });
    expect(seen?.principal).toEqual({ userId: "alice" });
    expect(seen?.threadId).toBe("thread-1");
    expect(seen?.runId).toBe("run-1");
    expect(seen?.settings).toEqual({ region: "eu" });
    expect(seen?.agentRuns).toMatchObject({ boundTo: "community.agent-teams" });
    expect(bound).toEqual([{ userId: "alice", via: "run" }]);
    expect(extensions.diagnostics.size).toBe(0);
  });

  it("without a provider the handle is null", async () => {
    let seen: ToolContext | undefined;
    const { tool } = await toolsOf(async (_payload, context) => {
      seen = context;
      return null;
    });
    expect((await call(tool, { name: "x" })).content).toBe("null");
    expect(seen?.agentRuns).toBeNull();
  });

  it("a payload that breaks the schema or the size cap is refused before the handler runs", async () => {
    let calls = 0;
    const { tool } = await toolsOf(async () => {
      calls += 1;
      return "ok";
    });
    const wrong = await tool
      .invoke({ name: tool.name, args: { name: 7 }, id: "c", type: "tool_call" }, RUN_CONFIG)
      .catch((error: unknown) => error);
    // LangChain or the host refuses it: either way no handler call and no crash.
    expect(calls).toBe(0);
    expect(String((wrong as ToolMessage).content ?? wrong)).toMatch(/schema|rejected/i);
    const huge = await call(tool, { name: "x".repeat(MAX_PLUGIN_TOOL_PAYLOAD_BYTES) });
    expect(huge.status).toBe("error");
    expect(String(huge.content)).toContain(PLUGIN_TOOL_MASK);
    expect(calls).toBe(0);
  });

  it("a handler's error is a masked tool error with its message, and a tool diagnostic", async () => {
    const { tool, extensions } = await toolsOf(async () => {
      throw new AgentRunError(409, "thread is not executing");
    });
    const message = await call(tool, { name: "x" });
    expect(message.status).toBe("error");
    expect(message.tool_call_id).toBe("call-1");
    expect(message.content).toBe(`${PLUGIN_TOOL_MASK} thread is not executing`);
    expect(extensions.diagnostics.list()).toEqual([
      expect.objectContaining({
        stage: "tool",
        level: "error",
        namespace: "community.agent-teams",
        message: "tool greet: thread is not executing",
      }),
    ]);
  });

  it("a thrown non-error shows the mask only", async () => {
    const { tool } = await toolsOf(() => Promise.reject("secret internals"));
    const message = await call(tool, { name: "x" });
    expect(message.content).toBe(PLUGIN_TOOL_MASK);
  });

  it("a handler that never answers times out; an oversized or unencodable result is refused", async () => {
    const hanging = await toolsOf(() => new Promise(() => {}), { timeoutMs: 50 });
    const late = await call(hanging.tool, { name: "x" });
    expect(late.status).toBe("error");
    expect(String(late.content)).toContain("did not answer within");
    expect(hanging.extensions.diagnostics.list()[0]?.stage).toBe("tool");

    const big = await toolsOf(async () => "y".repeat(70 * 1024));
    expect((await call(big.tool, { name: "x" })).content).toBe(PLUGIN_TOOL_MASK);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const loop = await toolsOf(async () => cyclic);
    expect((await call(loop.tool, { name: "x" })).content).toBe(PLUGIN_TOOL_MASK);
    expect(loop.extensions.diagnostics.list()[0]?.message).toContain("not JSON-encodable");
  });
});
