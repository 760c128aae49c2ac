/**
 * The reference's memory API over plain HTTP under real local auth, two users: facts added,
 * listed, patched and deleted, export and import, reload, config and status — each user sees and
 * changes only their own memory (a foreign fact id is a 404), and bad requests change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryDocument } from "../../src/agent/memory/memory-document.js";
import { type BrowserSession, cookieHeaders, registerUser } from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

describe("memory API under local auth (two users)", () => {
  let h: GatewayHarness;
  let alice: BrowserSession;
  let bob: BrowserSession;

  beforeAll(async () => {
    h = await startGatewayHarness({
      config: {
        auth: { mode: "local", allow_registration: true },
        memory: {
          max_facts: 3,
          backend_config: { storage_path: "/ignored", fact_confidence_threshold: 0.6 },
        },
      },
    });
    alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
    bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  });

  afterAll(async () => {
    await h?.close();
  });

  async function call(
    who: BrowserSession | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${h.apiUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(who ? cookieHeaders(who) : {}) },
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }
  const facts = (json: unknown) => (json as MemoryDocument).facts;

  it("needs a caller on every route", async () => {
    for (const [method, path] of [
      ["GET", "/memory"],
      ["GET", "/memory/facts"],
      ["POST", "/memory/facts"],
      ["PATCH", "/memory/facts/fact_x"],
      ["DELETE", "/memory/facts/fact_x"],
      ["GET", "/memory/export"],
      ["POST", "/memory/import"],
      ["POST", "/memory/reload"],
      ["GET", "/memory/config"],
      ["GET", "/memory/status"],
    ] as const) {
      const body = method === "GET" ? undefined : {};
      expect((await call(null, method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it("adds, lists, patches and deletes the caller's facts; the other user sees none", async () => {
    const added = await call(alice, "POST", "/memory/facts", {
      content: "  Prefers   dark mode ",
      category: "preference",
      confidence: 0.9,
    });
    expect(added.status).toBe(200);
    const [fact] = facts(added.json);
    expect(fact).toMatchObject({
      content: "Prefers dark mode",
      category: "preference",
      confidence: 0.9,
      source: "manual",
    });
    const id = fact?.id ?? "";
    expect(id).toMatch(/^fact_[0-9a-f]{12}$/);

    expect((await call(alice, "GET", "/memory/facts")).json).toEqual({ facts: [fact] });
    expect((await call(bob, "GET", "/memory/facts")).json).toEqual({ facts: [] });
    expect(JSON.stringify((await call(bob, "GET", "/memory")).json)).not.toContain("dark mode");

    // Bob cannot touch Alice's fact: it does not exist for him.
    const foreignPatch = await call(bob, "PATCH", `/memory/facts/${id}`, { confidence: 0.1 });
    expect(foreignPatch.status).toBe(404);
    expect(foreignPatch.json.detail).toBe(`Memory fact '${id}' not found.`);
    expect((await call(bob, "DELETE", `/memory/facts/${id}`)).status).toBe(404);

    const patched = await call(alice, "PATCH", `/memory/facts/${id}`, { confidence: 0.7 });
    expect(patched.status).toBe(200);
    expect(facts(patched.json)[0]).toMatchObject({
      content: "Prefers dark mode",
      category: "preference",
      confidence: 0.7,
      updatedAt: expect.any(String),
    });

    const duplicate = await call(alice, "POST", "/memory/facts", { content: "prefers dark MODE" });
    expect(duplicate).toMatchObject({
      status: 409,
      json: { detail: "A fact with the same content already exists.", code: "conflict" },
    });

    // A category typed in the reference UI is kept as typed.
    const hobby = await call(alice, "POST", "/memory/facts", {
      content: "Plays chess",
      category: "hobby",
    });
    const chess = facts(hobby.json).find((f) => f.content === "Plays chess");
    expect(chess?.category).toBe("hobby");
    expect((await call(alice, "DELETE", `/memory/facts/${chess?.id}`)).status).toBe(200);

    const deleted = await call(alice, "DELETE", `/memory/facts/${id}`);
    expect(deleted.status).toBe(200);
    expect(facts(deleted.json)).toEqual([]);
    expect((await call(alice, "DELETE", `/memory/facts/${id}`)).status).toBe(404);
  });

  it("refuses bad fact requests with 4xx and stores nothing", async () => {
    const before = (await call(alice, "GET", "/memory")).json;
    for (const body of [
      { content: "" },
      { content: "   " },
      { content: "x", confidence: 1.5 },
      { content: "x", category: "<system>" },
      { content: "x".repeat(2_001) },
      { confidence: 0.5 },
    ]) {
      const response = await call(alice, "POST", "/memory/facts", body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(typeof response.json.detail).toBe("string");
    }
    expect((await call(alice, "POST", "/memory/facts", "{not json")).status).toBe(400);
    expect((await call(alice, "PATCH", `/memory/facts/${"f".repeat(300)}`, {})).status).toBe(404);
    expect((await call(alice, "GET", "/memory")).json).toEqual(before);
  });

  it("evicts within max_facts: a fact that would be evicted itself is a 409", async () => {
    for (const [content, confidence] of [
      ["Lives in Oslo", 0.9],
      ["Has a cat", 0.8],
      ["Likes tea", 0.6],
      ["Works at Acme", 0.95],
    ] as const) {
      expect((await call(alice, "POST", "/memory/facts", { content, confidence })).status).toBe(
        200,
      );
    }
    // Three kept (max_facts: 3): the least worth keeping (least confident, same age) went.
    expect(
      facts((await call(alice, "GET", "/memory")).json)
        .map((fact) => fact.content)
        .sort(),
    ).toEqual(["Has a cat", "Lives in Oslo", "Works at Acme"]);
    const noRoom = await call(alice, "POST", "/memory/facts", { content: "Maybe", confidence: 0 });
    expect(noRoom.status).toBe(409);
    expect(noRoom.json.detail).toContain("memory.max_facts");
  });

  it("exports, imports (replacing) and reloads the caller's memory only", async () => {
    const exported = await call(alice, "GET", "/memory/export");
    expect(exported.status).toBe(200);
    expect(facts(exported.json)).toHaveLength(3);

    const imported = await call(bob, "POST", "/memory/import", exported.json);
    expect(imported.status).toBe(200);
    expect(facts(imported.json)).toEqual(facts(exported.json));
    expect((imported.json as MemoryDocument).revision).toBe(1);

    const replaced = await call(bob, "POST", "/memory/import", {
      user: { workContext: { summary: "Bob builds bridges.", updatedAt: "" } },
      facts: [],
    });
    expect(replaced.status).toBe(200);
    expect(facts(replaced.json)).toEqual([]);
    expect((await call(bob, "POST", "/memory/reload")).json).toEqual(replaced.json);
    // Alice's memory did not change.
    expect(facts((await call(alice, "GET", "/memory")).json)).toHaveLength(3);

    const twice = {
      facts: [
        { id: "f1", content: "a" },
        { id: "f1", content: "b" },
      ],
    };
    expect((await call(bob, "POST", "/memory/import", twice)).status).toBe(422);
    expect((await call(bob, "POST", "/memory/import", [1, 2])).status).toBe(422);
    const longSummary = { user: { workContext: { summary: "s".repeat(20_001) } } };
    expect((await call(bob, "POST", "/memory/import", longSummary)).status).toBe(422);
    expect((await call(bob, "GET", "/memory")).json).toEqual(replaced.json);
  });

  it("answers config and status in the reference's shape, backend keys resolved", async () => {
    const config = await call(alice, "GET", "/memory/config");
    expect(config.status).toBe(200);
    expect(config.json).toMatchObject({
      enabled: true,
      mode: "middleware",
      injection_enabled: true,
      shutdown_flush_timeout_seconds: 30,
      manager_class: "deermem",
      backend_config: {
        storage: "database",
        max_facts: 3,
        fact_confidence_threshold: 0.6,
        ignored: [expect.stringContaining("memory.backend_config.storage_path is ignored")],
      },
    });
    const status = await call(alice, "GET", "/memory/status");
    expect(status.json.config).toEqual(config.json);
    expect(status.json.data).toEqual((await call(alice, "GET", "/memory")).json);
  });
});
