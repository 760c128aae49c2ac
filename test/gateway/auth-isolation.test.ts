/**
 * User isolation under REAL `auth.mode: local`: two registered users; Bob
 * calls every thread/run/event/file route with Alice's ids, once with a session cookie (+ CSRF)
 * and once with an API token, and gets 404 without her data. No credentials is 401, a cookie
 * request without its CSRF pair is 403, and a bearer token needs no CSRF.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  cookieHeaders,
  createApiToken,
  registerUser,
} from "../auth/helpers/http-session.js";
import { foreignRoutes } from "./helpers/foreign-routes.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let h: GatewayHarness;
let alice: Client;
let bobSession: BrowserSession;
let bobToken = "";
const SECRET = "alice-secret-marker";
let threadId = "";
let runId = "";
let checkpointId = "";

beforeAll(async () => {
  h = await startGatewayHarness({ config: { auth: { mode: "local", allow_registration: true } } });
  const aliceSession = await registerUser(h.apiUrl, "alice@example.org", "alice password");
  bobSession = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  bobToken = await createApiToken(h.apiUrl, bobSession);
  // Alice drives the unmodified SDK with her API token.
  alice = new Client({
    apiUrl: h.apiUrl,
    apiKey: null,
    callerOptions: { maxRetries: 0 },
    defaultHeaders: { Authorization: `Bearer ${await createApiToken(h.apiUrl, aliceSession)}` },
  });
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

type Credential = "cookie" | "cookie-without-csrf" | "token" | "none";

function call(method: string, path: string, body: unknown, as: Credential): Promise<Response> {
  const auth: Record<string, string> =
    as === "token"
      ? { authorization: `Bearer ${bobToken}` }
      : as === "none"
        ? {}
        : cookieHeaders(bobSession, as === "cookie");
  return fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...auth },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("user isolation under local auth", () => {
  for (const credential of ["cookie", "token"] as const) {
    it(`answers 404 on every route for another user's ids (${credential})`, async () => {
      for (const [method, path, body] of foreignRoutes({ threadId, runId, checkpointId })) {
        const response = await call(method, path, body, credential);
        const text = await response.text();
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
        expect(text).not.toContain(SECRET);
        expect(JSON.parse(text)).toHaveProperty("detail");
      }
    });
  }

  it("does not let another user find the thread through search, count or creation", async () => {
    for (const credential of ["cookie", "token"] as const) {
      const search = await call("POST", "/threads/search", {}, credential);
      expect(await search.json()).toEqual([]);
      expect(await (await call("POST", "/threads/count", {}, credential)).json()).toBe(0);
      const create = await call("POST", "/threads", { thread_id: threadId }, credential);
      expect(create.status).toBe(409);
      expect(await create.text()).not.toContain(SECRET);
    }
  });

  it("scopes run ids to the caller's threads", async () => {
    const bob = new Client({
      apiUrl: h.apiUrl,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
      defaultHeaders: { Authorization: `Bearer ${bobToken}` },
    });
    const own = await bob.threads.create();
    await expect(bob.runs.get(own.thread_id, runId)).rejects.toMatchObject({ status: 404 });
  });

  it("answers 401 without credentials, except on public routes", async () => {
    for (const [method, path, body] of foreignRoutes({ threadId, runId, checkpointId })) {
      const response = await call(method, path, body, "none");
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      expect(await response.json()).toMatchObject({ code: "unauthorized" });
    }
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
    expect((await fetch(`${h.apiUrl}/info`)).status).toBe(200);
  });

  it("answers 403 to a cookie request without the CSRF pair; reads and tokens need none", async () => {
    const denied = await call("POST", "/threads", {}, "cookie-without-csrf");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: "forbidden" });
    const withoutCookiePair = await fetch(`${h.apiUrl}/threads`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: bobSession.cookie.split(";")[0] ?? "",
        "x-csrf-token": bobSession.csrf,
      },
      body: "{}",
    });
    expect(withoutCookiePair.status).toBe(403);
    expect((await call("POST", "/threads/search", {}, "cookie-without-csrf")).status).toBe(403);
    expect(
      (
        await call(
          "GET",
          "/threads/00000000-0000-0000-0000-000000000000",
          undefined,
          "cookie-without-csrf",
        )
      ).status,
    ).toBe(404);
    expect((await call("POST", "/threads", {}, "token")).status).toBe(200);
    expect((await call("POST", "/threads", {}, "cookie")).status).toBe(200);
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
