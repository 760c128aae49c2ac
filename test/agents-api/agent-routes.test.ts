/**
 * The custom-agent API over plain HTTP under `auth.mode: local` with two users: the reference's
 * request and response shapes, 422s that name what was wrong (nothing stored), 409 on a taken
 * name, and no user reading or writing another's agents or profile. With `agents_api.enabled`
 * off every route is a 403 whose sentence names the switch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  cookieHeaders,
  createApiToken,
  registerUser,
} from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";

let h: GatewayHarness;
let alice: BrowserSession;
let bobToken = "";

beforeAll(async () => {
  h = await startGatewayHarness({
    database: "sqlite",
    config: {
      auth: { mode: "local", allow_registration: true },
      agents_api: { enabled: true },
      models: [{ name: "fast", use: "openai", model: "gpt-x", api_key: "k" }],
    },
  });
  alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
  const bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  bobToken = await createApiToken(h.apiUrl, bob);
});
afterAll(async () => {
  await h?.close();
});

type Who = "alice" | "bob";

async function call(
  who: Who,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const auth = who === "alice" ? cookieHeaders(alice) : { authorization: `Bearer ${bobToken}` };
  const response = await fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...auth },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? null : JSON.parse(text) };
}

const POET = {
  name: "Poet-1",
  description: "Writes poems",
  model: "fast",
  tool_groups: ["web"],
  skills: [],
  model_settings: { temperature: 0.3, max_tokens: 800 },
  reasoning_effort: "low",
  soul: "You are a poet. ALICE-SOUL",
};

describe("custom agents API", () => {
  it("creates, lists, reads, checks, updates and deletes an agent in the reference's shapes", async () => {
    const created = await call("alice", "POST", "/agents", POET);
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      name: "poet-1",
      description: "Writes poems",
      model: "fast",
      tool_groups: ["web"],
      skills: [],
      model_settings: { temperature: 0.3, max_tokens: 800 },
      thinking_enabled: null,
      reasoning_effort: "low",
      soul: "You are a poet. ALICE-SOUL",
    });
    expect((await call("alice", "GET", "/agents")).json).toEqual({ agents: [created.json] });
    expect((await call("alice", "GET", "/agents/POET-1")).json).toEqual(created.json);
    expect((await call("alice", "GET", "/agents/check?name=Poet-1")).json).toEqual({
      available: false,
      name: "poet-1",
    });
    expect((await call("alice", "GET", "/agents/check?name=other")).json).toEqual({
      available: true,
      name: "other",
    });

    // Omitted fields stay; null clears; a model_settings sub-field left out is kept.
    const updated = await call("alice", "PUT", "/agents/poet-1", {
      description: "Writes short poems",
      skills: null,
      model_settings: { temperature: 0.9 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      description: "Writes short poems",
      skills: null,
      tool_groups: ["web"],
      model_settings: { temperature: 0.9, max_tokens: 800 },
      soul: "You are a poet. ALICE-SOUL",
    });

    const duplicate = await call("alice", "POST", "/agents", { name: "POET-1" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({ detail: "Agent 'poet-1' already exists" });

    expect((await call("alice", "DELETE", "/agents/poet-1")).status).toBe(204);
    expect((await call("alice", "GET", "/agents/poet-1")).status).toBe(404);
    expect((await call("alice", "DELETE", "/agents/poet-1")).status).toBe(404);
  });

  it("refuses bad definitions with a 422 that says what was wrong, storing nothing", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: "bad name!" }, /Invalid agent name 'bad name!'/],
      [{ name: "a".repeat(65) }, /at most 64 characters/],
      [{ name: "ok", model: "no-such-model" }, /Unknown model 'no-such-model'/],
      [{ name: "ok", tool_groups: "web" }, /body\.tool_groups/],
      [{ name: "ok", model_settings: { temperature: 3 } }, /body\.model_settings\.temperature/],
      [{ name: "ok", model_settings: { top_k: 3 } }, /body\.model_settings/],
      [{ name: "ok", reasoning_effort: "max" }, /body\.reasoning_effort/],
      [{ name: "ok", soul: "x".repeat(70_000) }, /body\.soul/],
      [{ name: "ok", colour: "red" }, /colour/],
    ];
    for (const [body, detail] of cases) {
      const answer = await call("alice", "POST", "/agents", body);
      expect({ body, status: answer.status }).toEqual({ body, status: 422 });
      expect(answer.json).toMatchObject({ detail: expect.stringMatching(detail) });
    }
    expect((await call("alice", "GET", "/agents")).json).toEqual({ agents: [] });
    expect((await call("alice", "GET", "/agents/check?name=no%20way")).status).toBe(422);
    expect((await call("alice", "GET", "/agents/check")).status).toBe(422);

    await call("alice", "POST", "/agents", { name: "keeper", soul: "KEEP" });
    const badUpdate = await call("alice", "PUT", "/agents/keeper", {
      description: "changed",
      model: "no-such-model",
    });
    expect(badUpdate.status).toBe(422);
    expect((await call("alice", "GET", "/agents/keeper")).json).toMatchObject({
      description: "",
      soul: "KEEP",
    });
    expect((await call("alice", "PUT", "/agents/missing", { description: "x" })).status).toBe(404);
    expect((await call("alice", "DELETE", "/agents/keeper")).status).toBe(204);
  });

  it("keeps each user's agents and profile to that user", async () => {
    await call("alice", "POST", "/agents", { name: "secret", soul: "ALICE-ONLY" });
    await call("alice", "PUT", "/user-profile", { content: "Alice is a botanist." });

    expect((await call("bob", "GET", "/agents")).json).toEqual({ agents: [] });
    expect((await call("bob", "GET", "/agents/secret")).status).toBe(404);
    expect((await call("bob", "GET", "/agents/check?name=secret")).json).toEqual({
      available: true,
      name: "secret",
    });
    expect((await call("bob", "PUT", "/agents/secret", { soul: "BOB" })).status).toBe(404);
    expect((await call("bob", "DELETE", "/agents/secret")).status).toBe(404);
    expect((await call("bob", "GET", "/user-profile")).json).toEqual({ content: null });

    // Bob may use the same name for an agent of his own.
    expect((await call("bob", "POST", "/agents", { name: "secret", soul: "BOB" })).status).toBe(
      201,
    );
    expect((await call("bob", "PUT", "/user-profile", { content: "" })).json).toEqual({
      content: null,
    });

    expect((await call("alice", "GET", "/agents/secret")).json).toMatchObject({
      soul: "ALICE-ONLY",
    });
    expect((await call("alice", "GET", "/user-profile")).json).toEqual({
      content: "Alice is a botanist.",
    });
    const tooLong = await call("alice", "PUT", "/user-profile", { content: "x".repeat(70_000) });
    expect(tooLong.status).toBe(422);
    expect((await call("alice", "GET", "/user-profile")).json).toEqual({
      content: "Alice is a botanist.",
    });
  });

  it("needs a signed-in caller", async () => {
    const response = await fetch(`${h.apiUrl}/agents`);
    expect(response.status).toBe(401);
  });
});

describe("custom agents API switched off (agents_api.enabled: false, the default)", () => {
  let off: GatewayHarness;
  beforeAll(async () => {
    off = await startGatewayHarness();
  });
  afterAll(async () => {
    await off?.close();
  });

  it("answers 403 on every route with a sentence naming the switch", async () => {
    const routes: Array<[string, string, unknown]> = [
      ["GET", "/agents", undefined],
      ["GET", "/agents/check?name=x", undefined],
      ["GET", "/agents/x", undefined],
      ["POST", "/agents", { name: "x" }],
      ["PUT", "/agents/x", {}],
      ["DELETE", "/agents/x", undefined],
      ["GET", "/user-profile", undefined],
      ["PUT", "/user-profile", { content: "x" }],
    ];
    for (const [method, path, body] of routes) {
      const response = await fetch(`${off.apiUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      const answer = (await response.json()) as { detail: string; code: string };
      expect(answer.detail).toContain("agents_api.enabled");
      expect(answer.code).toBe("forbidden");
    }
  });
});
