/**
 * The must-show scenario: beside a healthy plugin, one plugin throws at load, one throws at every
 * tick and one has a tool that throws. The server stays healthy, `fawn doctor`'s description
 * names each failure, and the healthy plugin's action and tool (called by the scripted lead agent
 * inside a real run) keep working; the failing tool's call becomes an error the run survives.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pluginToolName } from "../../../src/agent/tools/plugin-tools.js";
import { describeExtensions } from "../../../src/extensions/host/index.js";
import { contributing, OBJECT_SCHEMA, testPlugin } from "./plugin-fixtures.js";
import { type PluginServer, startPluginServer } from "./plugin-server.js";

const HEALTHY_TOOL = pluginToolName("test.healthy", "greet");
const FAILING_TOOL = pluginToolName("test.toolfail", "explode");

const SCRIPT = [
  {
    match: "^Use the plugins",
    turns: [
      {
        content: "Calling both plugin tools.",
        tool_calls: [
          { name: HEALTHY_TOOL, args: { name: "Ada" } },
          { name: FAILING_TOOL, args: { name: "Ada" } },
        ],
      },
      { content: "Done with the plugins." },
    ],
  },
];

const builtinPlugins = {
  loadfail: async () =>
    testPlugin("test.loadfail", () => {
      throw new Error("cannot reach the license server");
    }),
  tickfail: async () =>
    testPlugin(
      "test.tickfail",
      contributing({
        services: [
          {
            name: "poller",
            tickIntervalMs: 10,
            start: async () => {},
            tick: async () => {
              throw new Error("poll failed");
            },
            stop: async () => {},
          },
        ],
      }),
    ),
  toolfail: async () =>
    testPlugin(
      "test.toolfail",
      contributing({
        tools: [
          {
            name: "explode",
            description: "Always fails.",
            inputSchema: OBJECT_SCHEMA,
            handler: async () => {
              throw new Error("tool exploded");
            },
          },
        ],
      }),
    ),
  healthy: async () =>
    testPlugin(
      "test.healthy",
      contributing({
        actions: [
          {
            name: "ping",
            handler: async (payload, context) => ({
              pong: payload,
              handle: context.agentRuns !== null,
            }),
          },
        ],
        tools: [
          {
            name: "greet",
            description: "Greets someone by name.",
            inputSchema: OBJECT_SCHEMA,
            handler: async (payload, context) => ({
              greeting: `hello ${String(payload.name)}`,
              user: context.principal.userId,
              thread: context.threadId,
              handle: context.agentRuns !== null,
            }),
          },
        ],
      }),
    ),
};

let server: PluginServer;

beforeAll(async () => {
  server = await startPluginServer({
    plugins: ["loadfail", "tickfail", "toolfail", "healthy"].map((use) => ({ use })),
    config: (home) => ({
      models: [
        { name: "scripted", use: "scripted", model: "s", script: join(home, "script.json") },
      ],
    }),
    settings: { builtinPlugins },
  });
  await writeFile(join(server.home, "script.json"), JSON.stringify(SCRIPT));
});

afterAll(async () => {
  await server?.close();
});

interface StateMessage {
  type: string;
  name?: string;
  content: unknown;
  status?: string;
}

describe("failing plugins beside a healthy one", () => {
  it("keep the server healthy; doctor shows the failures; the healthy plugin keeps working", async () => {
    expect((await server.request("GET", "/health", undefined, null)).status).toBe(200);
    await vi.waitFor(() =>
      expect(server.fawn.extensions.diagnostics.list().some((d) => d.stage === "tick")).toBe(true),
    );

    const thread = (await (await server.request("POST", "/api/threads", {}, "alice")).json()) as {
      thread_id: string;
    };
    const run = await server.request(
      "POST",
      `/api/threads/${thread.thread_id}/runs/wait`,
      {
        assistant_id: "lead_agent",
        input: { messages: [{ role: "user", content: "Use the plugins" }] },
      },
      "alice",
    );
    expect(run.status).toBe(200);
    const state = (await (
      await server.request("GET", `/api/threads/${thread.thread_id}/state`, undefined, "alice")
    ).json()) as { values: { messages: StateMessage[] } };
    const messages = state.values.messages;
    const tools = new Map(messages.filter((m) => m.type === "tool").map((m) => [m.name, m]));
    expect(JSON.parse(String(tools.get(HEALTHY_TOOL)?.content))).toEqual({
      greeting: "hello Ada",
      user: "alice",
      thread: thread.thread_id,
      // The run-handle host reaches the tool, for the run's user.
      handle: true,
    });
    expect(tools.get(FAILING_TOOL)?.status).toBe("error");
    expect(tools.get(FAILING_TOOL)?.content).toBe(
      "Plugin tool unavailable or input rejected. tool exploded",
    );
    expect(messages.at(-1)?.content).toBe("Done with the plugins.");

    const ping = await server.request("POST", "/api/extensions/test.healthy/actions/ping", {
      n: 1,
    });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ pong: { n: 1 }, handle: true });
    expect((await server.request("GET", "/health", undefined, null)).status).toBe(200);

    const doctor = describeExtensions(server.fawn.extensions).join("\n");
    expect(doctor).toContain(
      "plugin loadfail: FAILED (install) install() failed: cannot reach the license server",
    );
    expect(doctor).toContain(
      "plugin tickfail: loaded test.tickfail 1.0.0 (0 tools, 0 actions, 1 service)",
    );
    expect(doctor).toContain(
      "plugin healthy: loaded test.healthy 1.0.0 (1 tool, 1 action, 0 services)",
    );
    expect(doctor).toContain(
      "error test.tickfail (tick): service poller: tick failed: poll failed",
    );
    expect(doctor).toContain("error test.toolfail (tool): tool explode: tool exploded");

    const listing = (await (await server.request("GET", "/api/extensions")).json()) as {
      plugins: Array<{ namespace: string }>;
      diagnostics: Array<{ stage: string }>;
    };
    expect(listing.plugins.map((plugin) => plugin.namespace)).toEqual([
      "test.tickfail",
      "test.toolfail",
      "test.healthy",
    ]);
    expect(new Set(listing.diagnostics.map((d) => d.stage))).toEqual(
      new Set(["install", "tick", "tool"]),
    );
  });
});
