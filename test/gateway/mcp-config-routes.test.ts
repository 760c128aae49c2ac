/**
 * The MCP admin API under real `auth.mode: local`: only an administrator (`auth.admins`) may
 * read or change the config (403 for another user, 401 without credentials); secrets come back
 * as `***` and a `***` sent back keeps the stored value (only while the server still points
 * where it did); a stdio command outside the allow-list is a 400, an invalid field a 422 naming
 * the server and field; PATCH switches one server (404 unknown); the file keeps its other keys
 * and is owner-only.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  cookieHeaders,
  createApiToken,
  registerUser,
} from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let h: GatewayHarness;
let adminToken = "";
let bob: BrowserSession;
let file = "";
const SECRET = "ghp_super-secret-value";

beforeAll(async () => {
  h = await startGatewayHarness({
    config: {
      auth: { mode: "local", allow_registration: true, admins: ["Alice@Example.org"] },
    },
  });
  const alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
  adminToken = await createApiToken(h.apiUrl, alice);
  bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  file = join(h.fawn.config.home, "extensions_config.json");
  await writeFile(
    file,
    JSON.stringify({ mcpServers: {}, skills: { "deep-research": { enabled: false } } }),
  );
});

afterAll(async () => {
  await h?.close();
});

function asAdmin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function stored(): Promise<
  { mcpServers: Record<string, Record<string, unknown>> } & Record<string, unknown>
> {
  return JSON.parse(await readFile(file, "utf8"));
}

interface ServerView {
  enabled: boolean;
  env: Record<string, string>;
  url: string | null;
  description: string;
  [key: string]: unknown;
}
interface McpView {
  mcp_servers: Record<string, ServerView>;
}
interface ErrorBody {
  detail: string;
  code: string;
}

async function viewOf(response: Response): Promise<McpView> {
  return (await response.json()) as McpView;
}

async function errorOf(response: Response): Promise<ErrorBody> {
  return (await response.json()) as ErrorBody;
}

const GITHUB = {
  enabled: true,
  type: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-github"],
  env: { GITHUB_TOKEN: SECRET, FROM_ENV: "$SOME_VAR" },
  description: "GitHub",
};
const REMOTE = {
  type: "http",
  url: "https://user:pa55word@mcp.example.com/mcp",
  headers: { Authorization: `Bearer ${SECRET}` },
  tools: ["search"],
  tool_name_prefix: "remote_",
  tool_call_timeout: 30,
};

describe("MCP config API", () => {
  it("is admin only: 403 for another user, 401 without credentials", async () => {
    for (const [method, path] of [
      ["GET", "/mcp/config"],
      ["PUT", "/mcp/config"],
      ["PATCH", "/mcp/config"],
      ["POST", "/mcp/cache/reset"],
    ] as const) {
      const forbidden = await fetch(`${h.apiUrl}${path}`, {
        method,
        headers: { "content-type": "application/json", ...cookieHeaders(bob, true) },
        body: method === "GET" ? null : "{}",
      });
      expect({ path, method, status: forbidden.status }).toEqual({ path, method, status: 403 });
      expect(await forbidden.json()).toMatchObject({ code: "forbidden" });
      const anonymous = await fetch(`${h.apiUrl}${path}`, { method });
      expect(anonymous.status).toBe(401);
    }
  });

  it("PUT stores the real values, answers masked, keeps the file's other keys", async () => {
    const response = await asAdmin("PUT", "/mcp/config", {
      mcp_servers: { github: GITHUB, remote: REMOTE },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("pa55word");
    const view = JSON.parse(text);
    expect(view.mcp_servers.github.env).toEqual({ GITHUB_TOKEN: "***", FROM_ENV: "$SOME_VAR" });
    expect(view.mcp_servers.remote).toMatchObject({
      url: "https://user:***@mcp.example.com/mcp",
      headers: { Authorization: "***" },
      tools: ["search"],
      tool_name_prefix: "remote_",
      tool_call_timeout: 30,
      session_init_timeout: null,
    });
    const onDisk = await stored();
    expect(onDisk.mcpServers.github?.env).toEqual(GITHUB.env);
    expect(onDisk.mcpServers.remote?.url).toBe(REMOTE.url);
    expect(onDisk.skills).toEqual({ "deep-research": { enabled: false } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const read = await asAdmin("GET", "/mcp/config");
    expect(await read.json()).toEqual(view);
  });

  it("a masked value sent back keeps the stored secret; not after the endpoint changed", async () => {
    const view = await viewOf(await asAdmin("GET", "/mcp/config"));
    const edited = {
      ...view.mcp_servers,
      github: { ...view.mcp_servers.github, description: "GitHub, edited" },
    };
    expect((await asAdmin("PUT", "/mcp/config", { mcp_servers: edited })).status).toBe(200);
    const onDisk = await stored();
    expect(onDisk.mcpServers.github?.env).toEqual(GITHUB.env);
    expect(onDisk.mcpServers.github?.description).toBe("GitHub, edited");
    expect(onDisk.mcpServers.remote?.url).toBe(REMOTE.url);
    expect(onDisk.mcpServers.remote?.headers).toEqual(REMOTE.headers);

    const moved = {
      ...view.mcp_servers,
      remote: { ...view.mcp_servers.remote, url: "https://attacker.example.com/mcp" },
    };
    const refused = await asAdmin("PUT", "/mcp/config", { mcp_servers: moved });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).detail).toMatch(/remote.*cannot be reused.*url/);

    const unknownKey = {
      github: { ...view.mcp_servers.github, env: { ...view.mcp_servers.github?.env, NEW: "***" } },
    };
    const noValue = await asAdmin("PUT", "/mcp/config", { mcp_servers: unknownKey });
    expect(noValue.status).toBe(400);
    expect((await errorOf(noValue)).detail).toMatch(/github\.env\.NEW/);
    // Nothing of the refused writes reached the file.
    expect((await stored()).mcpServers.remote?.url).toBe(REMOTE.url);
  });

  it("refuses a stdio command outside the allow-list (400) and an invalid field (422)", async () => {
    const bash = await asAdmin("PUT", "/mcp/config", {
      mcp_servers: { shell: { command: "bash", args: ["-c", "id"] } },
    });
    expect(bash.status).toBe(400);
    expect((await errorOf(bash)).detail).toMatch(
      /"bash" for "shell" is not allowed.*npx, uvx.*FAWN_MCP_STDIO_COMMAND_ALLOWLIST/,
    );
    const path = await asAdmin("PUT", "/mcp/config", {
      mcp_servers: { local: { command: "/usr/bin/npx" } },
    });
    expect(path.status).toBe(400);

    const bad = await asAdmin("PUT", "/mcp/config", {
      mcp_servers: { remote: { type: "http", url: "ftp://example.com" } },
    });
    expect(bad.status).toBe(422);
    expect((await errorOf(bad)).detail).toMatch(/mcpServers\.remote\.url/);
    expect(Object.keys((await stored()).mcpServers)).toEqual(["github", "remote"]);
  });

  it("PATCH switches a server; 404 for an unknown one, 400 to enable a refused command", async () => {
    const off = await asAdmin("PATCH", "/mcp/config", { server_name: "github", enabled: false });
    expect(off.status).toBe(200);
    expect((await viewOf(off)).mcp_servers.github?.enabled).toBe(false);
    expect((await stored()).mcpServers.github?.enabled).toBe(false);
    expect((await stored()).mcpServers.github?.env).toEqual(GITHUB.env);

    const missing = await asAdmin("PATCH", "/mcp/config", { server_name: "nope", enabled: true });
    expect(missing.status).toBe(404);

    // Hand-edited file: a disabled server whose command this host does not allow.
    const document = await stored();
    document.mcpServers.shell = { enabled: false, command: "bash" };
    await writeFile(file, JSON.stringify(document));
    const refused = await asAdmin("PATCH", "/mcp/config", { server_name: "shell", enabled: true });
    expect(refused.status).toBe(400);
    expect((await stored()).mcpServers.shell?.enabled).toBe(false);
  });

  it("POST /mcp/cache/reset answers success", async () => {
    const response = await asAdmin("POST", "/mcp/cache/reset");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
  });
});
