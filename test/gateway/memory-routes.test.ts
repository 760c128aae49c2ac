/**
 * `GET /api/memory` and `DELETE /api/memory` through a real gateway on 127.0.0.1: the caller's
 * memory document, forgetting it (waiting updates dropped too, so nothing comes back), and under
 * real local auth each user reading and forgetting only their own memory.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyMemory, type MemoryDocument } from "../../src/agent/memory/memory-document.js";
import { MemoryStore } from "../../src/agent/memory/memory-store.js";
import { memoryQueueFor } from "../../src/agent/memory/memory-update-queue.js";
import { type BrowserSession, cookieHeaders, registerUser } from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

function remember(store: MemoryStore, userId: string, content: string): Promise<MemoryDocument> {
  return store.update(userId, (memory) => ({
    ...memory,
    user: { ...memory.user, workContext: { summary: `${content} summary`, updatedAt: "" } },
    facts: [
      ...memory.facts,
      {
        id: `fact_${content}`,
        content,
        category: "preference",
        confidence: 0.9,
        createdAt: "2026-01-01T00:00:00.000Z",
        source: "t-1",
      },
    ],
  }));
}

function call(
  h: GatewayHarness,
  method: "GET" | "DELETE",
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${h.apiUrl}/memory`, { method, headers });
}

describe("memory routes (auth disabled)", () => {
  let h: GatewayHarness;
  let store: MemoryStore;

  beforeAll(async () => {
    h = await startGatewayHarness();
    store = new MemoryStore({ documents: h.fawn.stores.documents });
  });

  afterAll(async () => {
    await h?.close();
  });

  it("answers the empty document before anything is remembered", async () => {
    const response = await call(h, "GET");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(emptyMemory());
  });

  it("answers what is remembered, and DELETE forgets it, queued updates included", async () => {
    await remember(store, "default", "Likes tea");
    const shown = (await (await call(h, "GET")).json()) as MemoryDocument;
    expect(shown.version).toBe("1.0");
    expect(shown.user.workContext.summary).toBe("Likes tea summary");
    expect(shown.facts.map((fact) => fact.content)).toEqual(["Likes tea"]);

    let ran = false;
    memoryQueueFor(h.fawn.config.home).enqueue({
      userId: "default",
      threadId: "t-9",
      delayMs: 3_600_000,
      run: async () => {
        ran = true;
      },
    });
    const forgotten = await call(h, "DELETE");
    expect(forgotten.status).toBe(200);
    const cleared = (await forgotten.json()) as MemoryDocument;
    expect(cleared.facts).toEqual([]);
    expect(cleared.user.workContext.summary).toBe("");
    expect(cleared.revision).toBeGreaterThan(shown.revision);
    await memoryQueueFor(h.fawn.config.home).flush(5_000);
    expect(ran).toBe(false);
    expect(((await (await call(h, "GET")).json()) as MemoryDocument).facts).toEqual([]);
  });
});

describe("memory routes under local auth", () => {
  let h: GatewayHarness;
  let store: MemoryStore;
  let alice: BrowserSession;
  let bob: BrowserSession;
  let aliceId = "";

  beforeAll(async () => {
    h = await startGatewayHarness({
      config: { auth: { mode: "local", allow_registration: true } },
    });
    store = new MemoryStore({ documents: h.fawn.stores.documents });
    alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
    bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
    const me = (await (
      await fetch(`${h.apiUrl}/auth/me`, { headers: cookieHeaders(alice) })
    ).json()) as { user: { id: string } };
    aliceId = me.user.id;
    await remember(store, aliceId, "Alice secret preference");
  });

  afterAll(async () => {
    await h?.close();
  });

  it("needs a caller", async () => {
    expect((await call(h, "GET")).status).toBe(401);
    expect((await call(h, "DELETE")).status).toBe(401);
  });

  it("each user reads and forgets only their own memory", async () => {
    const bobs = await call(h, "GET", cookieHeaders(bob));
    const bobText = await bobs.text();
    expect(bobs.status).toBe(200);
    expect(bobText).not.toContain("Alice secret");
    expect((await call(h, "DELETE", cookieHeaders(bob))).status).toBe(200);
    const alices = (await (await call(h, "GET", cookieHeaders(alice))).json()) as MemoryDocument;
    expect(alices.facts.map((fact) => fact.content)).toEqual(["Alice secret preference"]);
    // A cookie request that changes state needs its CSRF header.
    expect((await call(h, "DELETE", cookieHeaders(alice, false))).status).toBe(403);
    expect((await call(h, "DELETE", cookieHeaders(alice))).status).toBe(200);
    expect((await store.read(aliceId)).facts).toEqual([]);
  });
});
