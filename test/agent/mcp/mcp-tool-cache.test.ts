/**
 * MCP tools from extensions_config.json, with real servers: a node script over stdio and an
 * in-process Streamable HTTP server. Loading, prefixes, allow-lists, env and headers reaching the
 * servers, failures skipped, the stdio command allow-list, reload on change, reset, and no child
 * process left after close.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpToolCache } from "../../../src/agent/mcp/mcp-tool-cache.js";
import { type McpHttpFixture, startMcpHttpFixture } from "../../fixtures/mcp/http-server.js";
import { withBlockingIoGate } from "../../helpers/blocking-io-gate.js";
import { isAlive, SILENT_SERVER, STDIO_SERVER, waitUntilGone } from "./mcp-test-support.js";

let home: string;
let http: McpHttpFixture;
let cache: McpToolCache | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-mcp-"));
  http = await startMcpHttpFixture({ requiredAuthorization: "Bearer s3cret" });
});

afterEach(async () => {
  await cache?.close();
  cache = undefined;
  await http.close();
  await rm(home, { recursive: true, force: true });
});

async function writeServers(servers: Record<string, unknown>): Promise<void> {
  await writeFile(
    join(home, "extensions_config.json"),
    JSON.stringify({ mcpServers: servers, skills: { "deep-research": { enabled: true } } }),
  );
}

function openCache(env: Record<string, string> = { FAWN_MCP_STDIO_COMMAND_ALLOWLIST: "node" }) {
  cache = new McpToolCache({ home, env, cwd: home });
  return cache;
}

async function call(tools: StructuredToolInterface[], name: string, args: object) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  return tool.invoke({ id: "call-1", name, args, type: "tool_call" });
}

describe("McpToolCache", () => {
  it("loads stdio and Streamable HTTP servers: prefixes, allow-list, env and headers reach them", async () => {
    await writeServers({
      local: {
        type: "stdio",
        command: "node",
        args: [STDIO_SERVER],
        env: { MCP_FIXTURE_SECRET: "$FIXTURE_SECRET" },
        tools: ["echo", "secret", "whoami"],
        tool_name_prefix: "loc_",
      },
      remote: { type: "http", url: http.url, headers: { Authorization: "Bearer $HTTP_TOKEN" } },
      off: { enabled: false, command: "npx", args: ["never-started"] },
    });
    const mcp = openCache({
      FAWN_MCP_STDIO_COMMAND_ALLOWLIST: "node",
      FIXTURE_SECRET: "from-env",
      HTTP_TOKEN: "unused",
    });
    const tools = await withBlockingIoGate(() => mcp.tools());
    expect(tools.map((tool) => tool.name).sort()).toEqual(["loc_echo", "loc_secret", "loc_whoami"]);
    // `Bearer $HTTP_TOKEN` is not a whole-string reference, so it stays literal: the server
    // refused it (401) and was skipped, while the stdio server still loaded.
    expect(http.authorizations).toContain("Bearer $HTTP_TOKEN");

    const echoed = await withBlockingIoGate(() => call(tools, "loc_echo", { text: "hi" }));
    expect(String(echoed.content)).toBe("echo: hi");
    expect(String((await call(tools, "loc_secret", {})).content)).toBe("from-env");
  });

  it("expands a whole-string $VAR header; the HTTP server answers with it", async () => {
    await writeServers({
      remote: { type: "http", url: http.url, headers: { Authorization: "$HTTP_AUTH" } },
    });
    const mcp = openCache({ HTTP_AUTH: "Bearer s3cret" });
    const tools = await withBlockingIoGate(() => mcp.tools());
    expect(tools.map((tool) => tool.name).sort()).toEqual(["lookup", "ping"]);
    const answer = await withBlockingIoGate(() => call(tools, "lookup", { country: "Japan" }));
    expect(String(answer.content)).toBe("Tokyo");
    expect(http.authorizations.every((value) => value === "Bearer s3cret")).toBe(true);
  });

  it("speaks the old HTTP+SSE transport (type: sse), headers on the stream and the posts", async () => {
    await writeServers({
      legacy: { type: "sse", url: http.sseUrl, headers: { Authorization: "Bearer s3cret" } },
    });
    const tools = await withBlockingIoGate(() => openCache({}).tools());
    expect(tools.map((tool) => tool.name).sort()).toEqual(["lookup", "ping"]);
    expect(String((await call(tools, "lookup", { country: "France" })).content)).toBe("Paris");
    expect(http.authorizations.length).toBeGreaterThanOrEqual(2);
    expect(http.authorizations.every((value) => value === "Bearer s3cret")).toBe(true);
  });

  it("refuses a stdio command outside the allow-list (default npx, uvx) and starts nothing", async () => {
    await writeServers({ local: { command: "node", args: [STDIO_SERVER] } });
    const mcp = openCache({});
    expect(await mcp.tools()).toEqual([]);
    expect(mcp.livePids()).toEqual([]);
  });

  it("skips a server that fails or never answers, kills its child, and keeps the others", async () => {
    const pidFile = join(home, "silent.pid");
    await writeServers({
      missing: { command: "node", args: [join(home, "no-such-script.mjs")] },
      silent: { command: "node", args: [SILENT_SERVER, pidFile], session_init_timeout: 1 },
      closed: { type: "http", url: "http://127.0.0.1:1/mcp" },
      local: { command: "node", args: [STDIO_SERVER], tools: ["echo"] },
    });
    const mcp = openCache();
    const tools = await mcp.tools();
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    const silentPid = Number(await readFile(pidFile, "utf8"));
    await waitUntilGone(silentPid);
    expect(isAlive(silentPid)).toBe(false);
  });

  it("a tool error and a call past tool_call_timeout throw (the agent turns them into error ToolMessages)", async () => {
    await writeServers({
      local: { command: "node", args: [STDIO_SERVER], tool_call_timeout: 0.3 },
    });
    const tools = await openCache().tools();
    await expect(call(tools, "fail", {})).rejects.toThrow(/the fixture refused/);
    await expect(call(tools, "sleep", { ms: 5_000 })).rejects.toThrow(/timed out/i);
    // The session survives both.
    expect(String((await call(tools, "echo", { text: "still" })).content)).toBe("echo: still");
  });

  it("reloads on a changed file, keeps unchanged servers, and close() leaves no child", async () => {
    await writeServers({ a: { command: "node", args: [STDIO_SERVER], tool_name_prefix: "a_" } });
    const mcp = openCache();
    const first = await mcp.tools();
    const pidA = Number((await call(first, "a_whoami", {})).content);
    expect(isAlive(pidA)).toBe(true);
    // Unchanged file: the same session (same child).
    const again = await mcp.tools();
    expect(Number((await call(again, "a_whoami", {})).content)).toBe(pidA);

    await writeServers({
      a: { command: "node", args: [STDIO_SERVER], tool_name_prefix: "a_" },
      b: { command: "node", args: [STDIO_SERVER], tool_name_prefix: true },
    });
    const second = await mcp.tools();
    expect(second.map((tool) => tool.name)).toContain("b_echo");
    expect(Number((await call(second, "a_whoami", {})).content)).toBe(pidA);
    const pidB = Number((await call(second, "b_whoami", {})).content);

    await mcp.reset();
    const third = await mcp.tools();
    const pidA2 = Number((await call(third, "a_whoami", {})).content);
    expect(pidA2).not.toBe(pidA);
    await waitUntilGone(pidA);

    await mcp.close();
    for (const pid of [pidA2, pidB]) await waitUntilGone(pid);
    expect([pidA, pidA2, pidB].some(isAlive)).toBe(false);
  });

  it("a stdio server that died is started again by the next build", async () => {
    await writeServers({ a: { command: "node", args: [STDIO_SERVER] } });
    const mcp = openCache();
    const pid = Number((await call(await mcp.tools(), "whoami", {})).content);
    process.kill(pid, "SIGKILL");
    await waitUntilGone(pid);
    // Once the session has noticed the exit, a build (same file) starts a new child.
    let next = pid;
    for (let attempt = 0; attempt < 200 && next === pid; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      next = await call(await mcp.tools(), "whoami", {}).then(
        (message) => Number(message.content),
        () => pid,
      );
    }
    expect(next).not.toBe(pid);
    expect(isAlive(next)).toBe(true);
  });
});
