/**
 * Plugin actions and routes through the gateway `fawn serve` builds, behind auth: the listing,
 * an action's answer and context (caller, settings, run handle bound to the plugin), 404s, the
 * error mapping (AgentRunError keeps its status, a plain Error is a 400, never a 5xx), body
 * bounds, and a plugin's own routes under its prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentRunError } from "../../../src/core/errors.js";
import type { AgentRunsProvider } from "../../../src/extensions/agent-runs-provider.js";
import type { ActionContext } from "../../../src/extensions/api/index.js";
import { contributing, fakeAgentRuns, OBJECT_SCHEMA, testPlugin } from "./plugin-fixtures.js";
import { type PluginServer, startPluginServer } from "./plugin-server.js";

let server: PluginServer;
const contexts: ActionContext[] = [];
const bound: unknown[] = [];

const provider: AgentRunsProvider = {
  bind(principal) {
    bound.push(principal);
    if (principal.via === "token") return null;
    return fakeAgentRuns();
  },
};

const routesPlugin = testPlugin(
  "test.routes",
  contributing({
    actions: [
      {
        name: "echo",
        handler: async (payload, context) => {
          contexts.push(context);
          return { payload, user: context.principal.userId };
        },
      },
      {
        name: "refuse",
        handler: async () => {
          throw new Error("name is required");
        },
      },
      {
        name: "conflict",
        handler: async () => {
          throw new AgentRunError(409, "run already exists");
        },
      },
      {
        name: "bug",
        // A plugin bug: a SyntaxError, not a deliberate refusal.
        handler: async () => JSON.parse("{"),
      },
    ],
    tools: [
      { name: "t", description: "A tool.", inputSchema: OBJECT_SCHEMA, handler: async () => 1 },
    ],
    routes: [
      {
        method: "GET",
        path: "/items/:id",
        handler: async (request, context) => ({
          body: { id: request.params.id, query: request.query, user: context.principal.userId },
        }),
      },
      {
        method: "POST",
        path: "/items",
        handler: async (request) => ({ status: 201, body: { created: request.body } }),
      },
    ],
  }),
  { version: "2.1.0", title: "Routes fixture" },
);

beforeAll(async () => {
  server = await startPluginServer({
    plugins: [
      { use: "routes", config: { token_budget: 5 } },
      { use: "broken", name: "Broken" },
    ],
    settings: {
      builtinPlugins: {
        routes: async () => routesPlugin,
        broken: async () =>
          testPlugin("test.broken", () => {
            throw new Error("cannot install");
          }),
      },
      agentRuns: provider,
    },
  });
});

afterAll(async () => {
  await server?.close();
});

describe("GET /api/extensions", () => {
  it("lists loaded plugins and the load failures, behind auth", async () => {
    expect((await server.request("GET", "/api/extensions", undefined, null)).status).toBe(401);
    const response = await server.request("GET", "/api/langgraph/extensions");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      plugins: Array<Record<string, unknown>>;
      diagnostics: Array<Record<string, unknown>>;
    };
    expect(body.plugins).toEqual([
      expect.objectContaining({
        namespace: "test.routes",
        version: "2.1.0",
        title: "Routes fixture",
        actions: ["echo", "refuse", "conflict", "bug"],
        tools: [
          expect.objectContaining({
            name: "t",
            exported_name: expect.stringMatching(/^ext_test_routes_t_/),
          }),
        ],
      }),
    ]);
    expect(JSON.stringify(body.plugins)).not.toContain("token_budget");
    expect(body.diagnostics).toEqual([
      expect.objectContaining({
        plugin: "Broken",
        stage: "install",
        message: "install() failed: cannot install",
      }),
    ]);
  });
});

describe("POST /api/extensions/<namespace>/actions/<name>", () => {
  it("answers the handler's result; the context is the caller, the settings and a bound handle", async () => {
    const response = await server.request(
      "POST",
      "/api/extensions/test.routes/actions/echo",
      { a: 1 },
      "bob",
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ payload: { a: 1 }, user: "bob" });
    const context = contexts.at(-1);
    expect(context?.principal).toEqual({ userId: "bob" });
    expect(context?.settings).toEqual({ token_budget: 5 });
    expect(context?.agentRuns).toMatchObject({ boundTo: "test.routes" });
    expect(bound.at(-1)).toEqual({ userId: "bob", via: "session" });
    // No body is an empty payload.
    expect((await server.request("POST", "/api/extensions/test.routes/actions/echo")).status).toBe(
      200,
    );
  });

  it("unknown namespaces and actions are 404s; anonymous callers are 401", async () => {
    const noPlugin = await server.request("POST", "/api/extensions/test.nope/actions/echo", {});
    expect(noPlugin.status).toBe(404);
    expect(await noPlugin.json()).toEqual({
      detail: expect.stringContaining("test.nope"),
      code: "not_found",
    });
    expect(
      (await server.request("POST", "/api/extensions/test.routes/actions/nope", {})).status,
    ).toBe(404);
    expect((await server.request("POST", "/api/extensions/test.broken/actions/x", {})).status).toBe(
      404,
    );
    expect(
      (await server.request("POST", "/api/extensions/test.routes/actions/echo", {}, null)).status,
    ).toBe(401);
  });

  it("a plain Error is a 400 with its message, an AgentRunError keeps its status, a bug is a 400 and a diagnostic", async () => {
    const refused = await server.request("POST", "/api/extensions/test.routes/actions/refuse", {});
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      detail: "name is required",
      code: "bad_request",
    });
    const conflict = await server.request(
      "POST",
      "/api/extensions/test.routes/actions/conflict",
      {},
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      detail: "run already exists",
      code: "conflict",
    });
    const before = server.fawn.extensions.diagnostics.size;
    const bug = await server.request("POST", "/api/extensions/test.routes/actions/bug", {});
    expect(bug.status).toBe(400);
    const added = server.fawn.extensions.diagnostics.list().slice(before);
    expect(added).toEqual([
      expect.objectContaining({ stage: "action", namespace: "test.routes", level: "error" }),
    ]);
  });

  it("bodies must be JSON objects within the size and depth bounds", async () => {
    const path = "/api/extensions/test.routes/actions/echo";
    expect((await server.request("POST", path, [1, 2])).status).toBe(422);
    expect((await server.request("POST", path, "{not json")).status).toBe(400);
    let deep: unknown = {};
    for (let i = 0; i < 40; i += 1) deep = { d: deep };
    expect((await server.request("POST", path, deep)).status).toBe(422);
    expect((await server.request("POST", path, { big: "x".repeat(1024 * 1024 + 1) })).status).toBe(
      413,
    );
  });
});

describe("plugin routes", () => {
  it("serve under /api/extensions/<namespace>/ with params, query and body", async () => {
    const got = await server.request(
      "GET",
      "/api/extensions/test.routes/items/42?verbose=1",
      undefined,
      "carol",
    );
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ id: "42", query: { verbose: "1" }, user: "carol" });
    const created = await server.request("POST", "/api/extensions/test.routes/items", {
      name: "n",
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ created: { name: "n" } });
    const missing = await server.request("GET", "/api/extensions/test.routes/other");
    expect(missing.status).toBe(404);
    expect((await missing.json()) as unknown).toEqual({
      detail: expect.any(String),
      code: "not_found",
    });
  });
});
