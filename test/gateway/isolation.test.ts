/**
 * Owner scoping through the auth seam: with two users, every thread/run/event route called with
 * the other user's ids answers 404 without their data; no credentials is 401; the owner's state
 * is unchanged afterwards.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foreignRoutes } from "./helpers/foreign-routes.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { HeaderAuthProvider } from "./helpers/header-auth.js";

let h: GatewayHarness;
let alice: Client;
const SECRET = "alice-secret-marker";
let threadId = "";
let runId = "";
let checkpointId = "";

beforeAll(async () => {
  h = await startGatewayHarness({
    auth: new HeaderAuthProvider(),
    clientHeaders: { "x-test-user": "alice" },
  });
  alice = h.client;
  const thread = await alice.threads.create({ metadata: { secret: SECRET } });
  threadId = thread.thread_id;
  const run = await alice.runs.create(threadId, "lead_agent", {
    input: { messages: [{ role: "user", content: SECRET }] },
  });
  runId = run.run_id;
  await alice.runs.join(threadId, runId);
  checkpointId = (await alice.threads.getState(threadId)).checkpoint.checkpoint_id ?? "";
});
afterAll(async () => {
  await h?.close();
});

function call(
  method: string,
  path: string,
  body?: unknown,
  user: string | null = "bob",
): Promise<Response> {
  return fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(user ? { "x-test-user": user } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("user isolation", () => {
  it("answers 404 on every route for another user's ids, without their data", async () => {
    for (const [method, path, body] of foreignRoutes({ threadId, runId, checkpointId })) {
      const response = await call(method, path, body);
      const text = await response.text();
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect(text).not.toContain(SECRET);
      expect(JSON.parse(text)).toHaveProperty("detail");
    }
  });

  it("does not let another user read the thread through search, count or creation", async () => {
    const search = (await (await call("POST", "/threads/search", {})).json()) as unknown[];
    expect(search).toEqual([]);
    expect(await (await call("POST", "/threads/count", {})).json()).toBe(0);
    const create = await call("POST", "/threads", { thread_id: threadId });
    expect(create.status).toBe(409);
    expect(await create.text()).not.toContain(SECRET);
  });

  it("scopes run ids to the caller's threads", async () => {
    const bob = new Client({
      apiUrl: h.apiUrl,
      apiKey: null,
      defaultHeaders: { "x-test-user": "bob" },
    });
    const own = await bob.threads.create();
    await expect(bob.runs.get(own.thread_id, runId)).rejects.toMatchObject({ status: 404 });
  });

  it("answers 401 without credentials, except on public routes", async () => {
    const response = await call("GET", `/threads/${threadId}`, undefined, null);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "unauthorized" });
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
    expect((await fetch(`${h.apiUrl}/info`)).status).toBe(200);
  });

  it("left the owner's thread and runs untouched", async () => {
    const thread = await alice.threads.get(threadId);
    expect(thread.metadata).toEqual(expect.objectContaining({ secret: SECRET }));
    expect(thread.metadata).not.toHaveProperty("hijacked");
    const runs = await alice.runs.list(threadId);
    expect(runs.map((run) => run.run_id)).toEqual([runId]);
    expect((await alice.threads.getState(threadId)).checkpoint.checkpoint_id).toBe(checkpointId);
  });
});
