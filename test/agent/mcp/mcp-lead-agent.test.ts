/**
 * MCP tools in whole lead-agent runs (createFawn → RunService → worker → journal) with the
 * scripted model: the agent calls a stdio MCP tool and an HTTP one and reads their results, a
 * failing MCP tool becomes an error ToolMessage, a general-purpose sub-agent inherits the MCP
 * tools, a broken server is skipped while the run still succeeds, and `fawn.close()` leaves no
 * MCP child process behind. Runs go under the blocking-IO gate.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Fawn } from "../../../src/app/create-fawn.js";
import { type McpHttpFixture, startMcpHttpFixture } from "../../fixtures/mcp/http-server.js";
import {
  runToEnd,
  type ScriptedLeadAgent,
  startScriptedLeadAgent,
} from "../helpers/scripted-lead-agent.js";
import { isAlive, STDIO_SERVER, waitUntilGone } from "./mcp-test-support.js";

let home: string;
let http: McpHttpFixture;
let fawn: Fawn | undefined;

const SCRIPT = [
  {
    match: "^Use the tools",
    turns: [
      {
        content: "Calling MCP tools.",
        tool_calls: [
          { name: "fx_echo", args: { text: "hello" } },
          { name: "fx_whoami", args: {} },
          { name: "lookup", args: { country: "France" } },
          { name: "fx_fail", args: {} },
        ],
      },
      { content: "The tools answered." },
    ],
  },
  {
    match: "^Delegate",
    turns: [
      {
        tool_calls: [
          {
            name: "task",
            args: { description: "lookup", prompt: "SUB lookup", subagent_type: "general-purpose" },
          },
        ],
      },
      { content: "The sub-agent is done." },
    ],
  },
  {
    match: "^SUB lookup",
    turns: [
      { tool_calls: [{ name: "lookup", args: { country: "Japan" } }] },
      { content: "Sub-agent looked it up." },
    ],
  },
];

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-mcp-agent-"));
  http = await startMcpHttpFixture();
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await http.close();
  await rm(home, { recursive: true, force: true });
});

async function startFawn(servers: Record<string, unknown>): Promise<ScriptedLeadAgent> {
  await writeFile(join(home, "extensions_config.json"), JSON.stringify({ mcpServers: servers }));
  const agent = await startScriptedLeadAgent({
    home,
    script: SCRIPT,
    env: { FAWN_MCP_STDIO_COMMAND_ALLOWLIST: "node" },
  });
  fawn = agent.fawn;
  return agent;
}

const FIXTURE_SERVERS = {
  fixture: { command: "node", args: [STDIO_SERVER], tool_name_prefix: "fx_" },
  // Broken: the run must still succeed with the other servers.
  broken: { type: "http", url: "http://127.0.0.1:1/mcp" },
};

describe("MCP tools in lead-agent runs", () => {
  it("the agent calls stdio and HTTP MCP tools and reads their results; close() ends the child", async () => {
    const agent = await startFawn({
      ...FIXTURE_SERVERS,
      remote: { type: "http", url: "$REMOTE_URL" },
    });
    // `$REMOTE_URL` is unset in the factory's env: that entry is reported and skipped.
    const run = await runToEnd(agent, "mcp-thread", "Use the tools please", { timeoutMs: 20_000 });
    expect(run.error).toBeNull();
    expect(run.status).toBe("success");

    const results = run.toolResults;
    const byName = new Map(results.map((message) => [message.name, message]));
    expect(String(byName.get("fx_echo")?.content)).toBe("echo: hello");
    expect(byName.get("fx_echo")?.status).not.toBe("error");
    // `lookup` is not configured (the remote entry was skipped): an unknown-tool error message.
    expect(byName.get("lookup")?.status).toBe("error");
    const failed = byName.get("fx_fail");
    expect(failed?.status).toBe("error");
    expect(String(failed?.content)).toMatch(
      /^Error: Tool 'fx_fail' failed with .*the fixture refused/,
    );

    const pid = Number(byName.get("fx_whoami")?.content);
    expect(isAlive(pid)).toBe(true);
    await agent.fawn.close();
    fawn = undefined;
    await waitUntilGone(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it("reads an HTTP MCP tool's answer in a run", async () => {
    const agent = await startFawn({ ...FIXTURE_SERVERS, remote: { url: http.url } });
    const run = await runToEnd(agent, "http-thread", "Use the tools please", { timeoutMs: 20_000 });
    const lookup = run.toolResults.find((message) => message.name === "lookup");
    expect(lookup?.status).not.toBe("error");
    expect(String(lookup?.content)).toBe("Paris");
  });

  it("a general-purpose sub-agent inherits the MCP tools", async () => {
    const agent = await startFawn({ ...FIXTURE_SERVERS, remote: { url: http.url } });
    const run = await runToEnd(agent, "sub-thread", "Delegate the lookup", {
      timeoutMs: 20_000,
      configurable: { subagent_enabled: true },
    });
    expect(run.status).toBe("success");
    const events = await agent.fawn.stores.events.listEvents(run.threadId, run.runId, {});
    const end = events.find((event) => event.event_type === "subagent.end");
    expect(end?.content).toMatchObject({ status: "completed", result: "Sub-agent looked it up." });
    // Only the sub-agent called `lookup`: the call reached the MCP server.
    expect(http.toolCalls).toEqual(["lookup"]);
  });
});
