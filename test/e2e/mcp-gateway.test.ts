/**
 * MCP end to end through the gateway, as `fawn serve` builds it: an operator PUTs a stdio MCP
 * server through `/api/mcp/config`, and the next run (driven by the real LangGraph SDK client,
 * scripted model) calls its tools and reads their results in the thread state. The secret in
 * the server's env is masked in every API answer, survives a masked round trip, and reaches the
 * child. After shutdown no MCP child process is left.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isAlive, STDIO_SERVER, waitUntilGone } from "../agent/mcp/mcp-test-support.js";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const SECRET = "mcp-e2e-secret";

const SCRIPT = [
  {
    match: "^Use MCP",
    turns: [
      {
        content: "Asking the MCP server.",
        tool_calls: [
          { name: "fx_echo", args: { text: "through the gateway" } },
          { name: "fx_secret", args: {} },
          { name: "fx_whoami", args: {} },
        ],
      },
      { content: "The MCP server answered." },
    ],
  },
];

interface StateMessage {
  type: string;
  name?: string;
  content: unknown;
  status?: string;
}

let served: ServedGateway | undefined;

beforeAll(async () => {
  vi.stubEnv("FAWN_MCP_STDIO_COMMAND_ALLOWLIST", "node");
  served = await startServedGateway({
    config: (home) => ({
      models: [
        { name: "scripted", use: "scripted", model: "s", script: join(home, "script.json") },
      ],
    }),
  });
  await writeFile(join(served.home, "script.json"), JSON.stringify(SCRIPT));
});

afterAll(async () => {
  await served?.close();
  vi.unstubAllEnvs();
});

function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${served?.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function runAndRead(threadText: string): Promise<StateMessage[]> {
  if (!served) throw new Error("no gateway");
  const client = served.client();
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: threadText }] },
  });
  const state = await client.threads.getState<{ messages: StateMessage[] }>(thread.thread_id);
  return state.values.messages;
}

describe("MCP through the gateway", () => {
  it("a server added through the API serves the next run; secrets stay masked; close ends it", async () => {
    const put = await api("PUT", "/mcp/config", {
      mcp_servers: {
        fixture: {
          type: "stdio",
          command: "node",
          args: [STDIO_SERVER],
          env: { MCP_FIXTURE_SECRET: SECRET },
          tool_name_prefix: "fx_",
        },
      },
    });
    expect(put.status).toBe(200);
    const shown = await put.text();
    expect(shown).not.toContain(SECRET);

    // A UI round trip: GET (masked), edit the description, PUT the masks back.
    const view = (await (await api("GET", "/mcp/config")).json()) as {
      mcp_servers: Record<string, { env: Record<string, string>; description: string }>;
    };
    const fixture = view.mcp_servers.fixture;
    expect(fixture?.env).toEqual({ MCP_FIXTURE_SECRET: "***" });
    if (fixture) fixture.description = "The test fixture";
    expect((await api("PUT", "/mcp/config", view)).status).toBe(200);

    const messages = await runAndRead("Use MCP please");
    const tools = new Map(
      messages.filter((m) => m.type === "tool").map((message) => [message.name, message]),
    );
    expect(tools.get("fx_echo")?.content).toBe("echo: through the gateway");
    expect(tools.get("fx_secret")?.content).toBe(SECRET);
    expect(messages.at(-1)?.content).toBe("The MCP server answered.");
    const pid = Number(tools.get("fx_whoami")?.content);
    expect(isAlive(pid)).toBe(true);

    // Switched off: the next run has no MCP tools, and the child is gone after the grace
    // period or at shutdown, whichever comes first.
    expect(
      (await api("PATCH", "/mcp/config", { server_name: "fixture", enabled: false })).status,
    ).toBe(200);
    const after = await runAndRead("Use MCP please");
    const echo = after.find((m) => m.type === "tool" && m.name === "fx_echo");
    expect(echo?.status).toBe("error");

    await served?.close();
    served = undefined;
    await waitUntilGone(pid);
    expect(isAlive(pid)).toBe(false);
  });
});
