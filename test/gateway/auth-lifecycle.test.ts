/**
 * `auth.mode: local` over HTTP: registration rules, login/logout/me, session cookies, the CSRF
 * double submit, API token lifecycle (and the unmodified SDK with a token), cross-site auth
 * requests, and the failed-login rate limit.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  cookieHeaders,
  createApiToken,
  postJson,
  registerUser,
  sessionFrom,
} from "../auth/helpers/http-session.js";
import { type TestLocalAuth, testLocalAuth } from "../auth/helpers/local-auth.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const PASSWORD = "alice's long password";
let h: GatewayHarness;
let auth: TestLocalAuth;
let alice: BrowserSession;
const issuedSecrets: string[] = [PASSWORD];

beforeAll(async () => {
  auth = testLocalAuth({ allow_registration: false });
  h = await startGatewayHarness({ auth: auth.provider });
  alice = await registerUser(h.apiUrl, "alice@example.org", PASSWORD);
  issuedSecrets.push(alice.csrf, alice.cookie.split(";")[0]?.split("=")[1] ?? "");
});
afterAll(async () => {
  await h?.close();
  // Nothing secret ever reached a log line.
  const logged = auth?.logger.lines.join("\n") ?? "";
  expect(logged).toContain("login failed");
  for (const secret of issuedSecrets) expect(logged).not.toContain(secret);
});

const me = (headers: Record<string, string>) => fetch(`${h.apiUrl}/auth/me`, { headers });

describe("registration and sessions", () => {
  it("set the session cookie HttpOnly and SameSite=Lax, the CSRF cookie readable", async () => {
    const response = await postJson(`${h.apiUrl}/auth/login`, {
      email: "alice@example.org",
      password: PASSWORD,
    });
    expect(response.status).toBe(200);
    const [session, csrf] = ["fawn_session=", "csrf_token="].map((name) =>
      response.headers.getSetCookie().find((line) => line.startsWith(name)),
    );
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Path=\//);
    expect(csrf).not.toMatch(/HttpOnly/);
    const body = await response.text();
    expect(body).not.toContain(PASSWORD);
    expect(JSON.parse(body)).toMatchObject({ user: { email: "alice@example.org" } });
    issuedSecrets.push(sessionFrom(response).csrf);
  });

  it("closes registration once the first user exists", async () => {
    const response = await postJson(`${h.apiUrl}/auth/register`, {
      email: "mallory@example.org",
      password: "mallory password",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "forbidden" });
  });

  it("answers me for a session", async () => {
    const response = await me(cookieHeaders(alice, false));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ user: { email: "alice@example.org" }, via: "session" });
    expect(JSON.stringify(body)).not.toMatch(/scrypt|password/);
  });

  it("rejects a wrong password with 401 and never echoes it", async () => {
    const response = await postJson(`${h.apiUrl}/auth/login`, {
      email: "alice@example.org",
      password: "not the password",
    });
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: "unauthorized" });
    expect(text).not.toContain("not the password");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("ends the session on logout", async () => {
    const session = sessionFrom(
      await postJson(`${h.apiUrl}/auth/login`, { email: "alice@example.org", password: PASSWORD }),
    );
    expect((await me(cookieHeaders(session))).status).toBe(200);
    const logout = await fetch(`${h.apiUrl}/auth/logout`, {
      method: "POST",
      headers: cookieHeaders(session),
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie().some((line) => /^fawn_session=;/.test(line))).toBe(true);
    expect((await me(cookieHeaders(session))).status).toBe(401);
    expect((await fetch(`${h.apiUrl}/auth/logout`, { method: "POST" })).status).toBe(204);
    // The other session of the same user is unaffected.
    expect((await me(cookieHeaders(alice))).status).toBe(200);
  });

  it("refuses login and register from another site's page", async () => {
    const credentials = { email: "alice@example.org", password: PASSWORD };
    const evil = await postJson(`${h.apiUrl}/auth/login`, credentials, {
      origin: "https://evil.example",
    });
    expect(evil.status).toBe(403);
    const fetchSite = await postJson(`${h.apiUrl}/auth/login`, credentials, {
      "sec-fetch-site": "cross-site",
    });
    expect(fetchSite.status).toBe(403);
    const own = await postJson(`${h.apiUrl}/auth/login`, credentials, { origin: h.url });
    expect(own.status).toBe(200);
  });
});

describe("CSRF double submit", () => {
  it("refuses a mismatched or foreign pair, accepts the session's own", async () => {
    const attempt = (headers: Record<string, string>) =>
      postJson(`${h.apiUrl}/threads`, {}, headers);
    const sessionCookie = alice.cookie.split(";")[0] ?? "";
    const mismatch = await attempt({ cookie: alice.cookie, "x-csrf-token": `${alice.csrf}x` });
    expect(mismatch.status).toBe(403);
    expect(await mismatch.json()).toMatchObject({ detail: "CSRF token mismatch." });
    // A pair that agrees with itself but belongs to no session (a tossed cookie) fails too.
    const tossed = await attempt({
      cookie: `${sessionCookie}; csrf_token=attacker`,
      "x-csrf-token": "attacker",
    });
    expect(tossed.status).toBe(403);
    expect((await attempt({ cookie: alice.cookie })).status).toBe(403);
    expect((await attempt(cookieHeaders(alice))).status).toBe(200);
  });
});

describe("API tokens", () => {
  let token = "";
  let tokenId = "";

  beforeAll(async () => {
    const response = await postJson(
      `${h.apiUrl}/auth/tokens`,
      { name: "ci" },
      cookieHeaders(alice),
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; token: string; prefix: string };
    token = body.token;
    tokenId = body.id;
    issuedSecrets.push(token);
    expect(token.startsWith(body.prefix)).toBe(true);
  });

  it("lists tokens with their prefix only", async () => {
    const listed = await fetch(`${h.apiUrl}/auth/tokens`, { headers: cookieHeaders(alice, false) });
    const text = await listed.text();
    expect(JSON.parse(text)).toEqual([
      { id: tokenId, name: "ci", prefix: token.slice(0, 11), created_at: expect.any(String) },
    ]);
    expect(text).not.toContain(token);
  });

  it("authenticates a bearer token without CSRF, and x-api-key as the SDK sends it", async () => {
    const response = await me({ authorization: `Bearer ${token}` });
    expect(await response.json()).toMatchObject({
      user: { email: "alice@example.org" },
      via: "token",
    });
    const withBearer = new Client({
      apiUrl: h.apiUrl,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
      defaultHeaders: { Authorization: `Bearer ${token}` },
    });
    const thread = await withBearer.threads.create({ metadata: { via: "bearer" } });
    const result = await withBearer.runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "hello" }] },
    });
    expect(result).toHaveProperty("messages");
    const withApiKey = new Client({
      apiUrl: h.apiUrl,
      apiKey: token,
      callerOptions: { maxRetries: 0 },
    });
    expect((await withApiKey.threads.get(thread.thread_id)).metadata).toMatchObject({
      via: "bearer",
    });
  });

  it("rejects unknown tokens and other Authorization schemes with 401", async () => {
    for (const authorization of [
      `Bearer ${token}x`,
      "Bearer fawn_nope",
      "Basic YTpi",
      `Bearer ${alice.csrf}`,
    ]) {
      const response = await me({ authorization });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: "unauthorized" });
    }
  });

  it("does not let a token mint or revoke tokens", async () => {
    const bearer = { authorization: `Bearer ${token}` };
    expect((await postJson(`${h.apiUrl}/auth/tokens`, {}, bearer)).status).toBe(403);
    const revoke = await fetch(`${h.apiUrl}/auth/tokens/${tokenId}`, {
      method: "DELETE",
      headers: bearer,
    });
    expect(revoke.status).toBe(403);
    expect((await fetch(`${h.apiUrl}/auth/tokens`, { headers: bearer })).status).toBe(200);
  });

  it("keeps users' tokens apart and revokes for good", async () => {
    const bob = await auth.services.accounts.addUser("bob@example.org", "bob password 1");
    const bobs = await auth.services.tokens.create(bob.id, "bob");
    const foreign = await fetch(`${h.apiUrl}/auth/tokens/${bobs.record.id}`, {
      method: "DELETE",
      headers: cookieHeaders(alice),
    });
    expect(foreign.status).toBe(404);
    expect(await auth.services.tokens.resolve(bobs.token)).toBe(bob.id);

    const revoke = () =>
      fetch(`${h.apiUrl}/auth/tokens/${tokenId}`, {
        method: "DELETE",
        headers: cookieHeaders(alice),
      });
    expect((await revoke()).status).toBe(204);
    expect((await me({ authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await revoke()).status).toBe(404);
    const listed = await fetch(`${h.apiUrl}/auth/tokens`, { headers: cookieHeaders(alice, false) });
    expect(await listed.json()).toEqual([]);
  });

  it("a session created token works for the SDK right away", async () => {
    const fresh = await createApiToken(h.apiUrl, alice, "fresh");
    issuedSecrets.push(fresh);
    const client = new Client({
      apiUrl: h.apiUrl,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
      defaultHeaders: { Authorization: `Bearer ${fresh}` },
    });
    expect(Array.isArray(await client.threads.search())).toBe(true);
  });
});

describe("failed-login rate limit", () => {
  let limited: GatewayHarness;
  let limitedAuth: TestLocalAuth;

  beforeAll(async () => {
    limitedAuth = testLocalAuth({
      login_max_failures: 3,
      login_lockout_seconds: 60,
      trust_proxy: true,
    });
    limited = await startGatewayHarness({ auth: limitedAuth.provider });
    await registerUser(limited.apiUrl, "carol@example.org", "carol password");
  });
  afterAll(async () => {
    await limited?.close();
  });

  const login = (password: string, ip: string) =>
    postJson(
      `${limited.apiUrl}/auth/login`,
      { email: "carol@example.org", password },
      { "x-forwarded-for": `203.0.113.99, ${ip}` },
    );

  it("refuses an IP after repeated failures, even with the right password, and only that IP", async () => {
    for (let i = 0; i < 3; i++)
      expect((await login("wrong password", "198.51.100.1")).status).toBe(401);
    const refused = await login("carol password", "198.51.100.1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: "too_many_requests" });
    expect((await login("carol password", "198.51.100.2")).status).toBe(200);
  });

  it("counts concurrent guesses before any of them finishes", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => login("wrong password", "198.51.100.3")),
    );
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });
});
