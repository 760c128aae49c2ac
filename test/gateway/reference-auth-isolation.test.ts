/**
 * Two users signed in through the reference's `/api/v1/auth/*` (its `access_token` cookie and the
 * CSRF header, over plain HTTP): each sees only its own threads, and every thread, run, event and
 * file route answers the other user 404 without a trace of the owner's data, leaving it intact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, cookieHeaders } from "../auth/helpers/http-session.js";
import { testLocalAuth } from "../auth/helpers/local-auth.js";
import { postV1, referenceSessionFrom } from "../auth/helpers/reference-session.js";
import { foreignRoutes, RUN_BODY } from "./helpers/foreign-routes.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const SECRET = "alice-secret-marker";
let h: GatewayHarness;
let alice: BrowserSession;
let bob: BrowserSession;
let aliceThread = "";
let bobThread = "";
let runId = "";
let checkpointId = "";

function call(
  session: BrowserSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...cookieHeaders(session) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  if (!answer.ok) throw new Error(`${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

beforeAll(async () => {
  const auth = testLocalAuth({ allow_registration: false });
  h = await startGatewayHarness({ auth: auth.provider });
  // The first account through initialize (registration closed), the second added by an operator.
  alice = referenceSessionFrom(
    await postV1(h.apiUrl, "initialize", {
      email: "alice@example.org",
      password: "alice password",
    }),
  );
  await auth.services.accounts.addUser("bob@example.org", "bob password 1");
  const login = await fetch(`${h.apiUrl}/v1/auth/login/local`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "bob@example.org", password: "bob password 1" }),
  });
  bob = referenceSessionFrom(login);

  aliceThread = (
    await json<{ thread_id: string }>(
      call(alice, "POST", "/threads", { metadata: { secret: SECRET } }),
    )
  ).thread_id;
  const run = await json<{ run_id: string }>(
    call(alice, "POST", `/threads/${aliceThread}/runs`, {
      ...RUN_BODY,
      input: { messages: [{ role: "user", content: SECRET }] },
    }),
  );
  runId = run.run_id;
  await json(call(alice, "GET", `/threads/${aliceThread}/runs/${runId}/join`));
  const state = await json<{ checkpoint: { checkpoint_id: string } }>(
    call(alice, "GET", `/threads/${aliceThread}/state`),
  );
  checkpointId = state.checkpoint.checkpoint_id;
  bobThread = (await json<{ thread_id: string }>(call(bob, "POST", "/threads", {}))).thread_id;
});
afterAll(async () => {
  await h?.close();
});

describe("two users through the v1 auth routes", () => {
  it("each user's search and count hold only that user's threads", async () => {
    const ids = async (session: BrowserSession) =>
      (await json<Array<{ thread_id: string }>>(call(session, "POST", "/threads/search", {}))).map(
        (thread) => thread.thread_id,
      );
    expect(await ids(alice)).toEqual([aliceThread]);
    expect(await ids(bob)).toEqual([bobThread]);
    expect(await json(call(bob, "POST", "/threads/count", {}))).toBe(1);
  });

  it("answers the other user 404 on every thread, run, event and file route", async () => {
    for (const [method, path, body] of foreignRoutes({
      threadId: aliceThread,
      runId,
      checkpointId,
    })) {
      const response = await call(bob, method, path, body);
      const text = await response.text();
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect(text).not.toContain(SECRET);
    }
  });

  it("leaves the owner's thread, runs and state as they were", async () => {
    const thread = await json<{ metadata: Record<string, unknown> }>(
      call(alice, "GET", `/threads/${aliceThread}`),
    );
    expect(thread.metadata).toMatchObject({ secret: SECRET });
    expect(thread.metadata).not.toHaveProperty("hijacked");
    const runs = await json<Array<{ run_id: string }>>(
      call(alice, "GET", `/threads/${aliceThread}/runs`),
    );
    expect(runs.map((run) => run.run_id)).toEqual([runId]);
    const state = await json<{ checkpoint: { checkpoint_id: string } }>(
      call(alice, "GET", `/threads/${aliceThread}/state`),
    );
    expect(state.checkpoint.checkpoint_id).toBe(checkpointId);
  });

  it("me tells each browser who it is", async () => {
    const me = (session: BrowserSession) =>
      json<{ email: string }>(
        fetch(`${h.apiUrl}/v1/auth/me`, { headers: { cookie: session.cookie } }),
      );
    expect((await me(alice)).email).toBe("alice@example.org");
    expect((await me(bob)).email).toBe("bob@example.org");
  });
});
