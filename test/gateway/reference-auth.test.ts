/**
 * The reference's `/api/v1/auth/*` over `auth.mode: local`, called as its web frontend calls
 * them: first-account setup, register, the form-encoded login, me, change-password and logout,
 * with the reference's payloads, its `access_token` cookie, error bodies whose `code` and
 * `message` its frontend reads, the same CSRF rules and the failed-login limit shared with
 * `/api/auth/login` (wrong current passwords at change-password count too).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  cookieHeaders,
  postJson,
  sessionFrom,
  setCookies,
} from "../auth/helpers/http-session.js";
import { type TestLocalAuth, testLocalAuth } from "../auth/helpers/local-auth.js";
import { loginLocal, postV1, referenceSessionFrom } from "../auth/helpers/reference-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const ALICE = { email: "alice@example.org", password: "alice long password" };
const BOB = { email: "bob@example.org", password: "bob long password" };
let h: GatewayHarness;
let auth: TestLocalAuth;
let alice: BrowserSession;

const v1 = (route: string, headers: Record<string, string> = {}) =>
  fetch(`${h.apiUrl}/v1/auth/${route}`, { headers });
const cookieLine = (response: Response, name: string) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`)) ?? "";

beforeAll(async () => {
  auth = testLocalAuth({ allow_registration: true, admins: [ALICE.email] });
  h = await startGatewayHarness({ auth: auth.provider });
});
afterAll(async () => {
  await h?.close();
  const logged = auth?.logger.lines.join("\n") ?? "";
  for (const secret of [ALICE.password, BOB.password, alice?.csrf ?? "-"]) {
    expect(logged).not.toContain(secret);
  }
});

describe("first-account setup", () => {
  it("reports setup needed and no sign-on providers on a fresh install", async () => {
    expect(await (await v1("setup-status")).json()).toEqual({
      needs_setup: true,
      registration_enabled: true,
    });
    expect(await (await v1("providers")).json()).toEqual({ providers: [] });
  });

  it("initialize creates the first account, signs it in with access_token, then refuses", async () => {
    const response = await postV1(h.apiUrl, "initialize", { ...ALICE, remember_me: true });
    expect(response.status).toBe(201);
    const user = await response.json();
    expect(user).toEqual({
      id: expect.any(String),
      email: ALICE.email,
      system_role: "admin",
      needs_setup: false,
      oauth_provider: null,
    });
    const token = cookieLine(response, "access_token");
    expect(token).toMatch(/HttpOnly/);
    expect(token).toMatch(/SameSite=Lax/);
    expect(token).toMatch(/Max-Age=\d+/);
    expect(cookieLine(response, "csrf_token")).not.toMatch(/HttpOnly/);
    expect(setCookies(response).has("fawn_session")).toBe(false);
    alice = referenceSessionFrom(response);

    expect(await (await v1("setup-status")).json()).toMatchObject({ needs_setup: false });
    const again = await postV1(h.apiUrl, "initialize", BOB);
    expect(again.status).toBe(409);
    const body = (await again.json()) as { detail: string };
    expect(body).toEqual({
      detail: expect.any(String),
      code: "system_already_initialized",
      message: body.detail,
    });
  });
});

describe("accounts and sessions", () => {
  it("register answers the reference's user, a plain user unless listed in auth.admins", async () => {
    const response = await postV1(h.apiUrl, "register", BOB);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ email: BOB.email, system_role: "user" });
    referenceSessionFrom(response);
    const taken = await postV1(h.apiUrl, "register", { ...BOB, email: "BOB@example.org" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: "email_already_exists" });
    const short = await postV1(h.apiUrl, "register", { email: "c@example.org", password: "x" });
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ code: "validation_failed" });
  });

  it("login/local takes the form, answers expires_in, and 'remember me' off sets session cookies", async () => {
    const response = await loginLocal(h.apiUrl, ALICE.email, ALICE.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ expires_in: 7 * 24 * 3600, needs_setup: false });
    expect(cookieLine(response, "access_token")).toMatch(/Max-Age=\d+/);
    const forgetful = await loginLocal(h.apiUrl, ALICE.email, ALICE.password, {
      remember_me: "false",
    });
    expect(forgetful.status).toBe(200);
    expect(cookieLine(forgetful, "access_token")).not.toMatch(/Max-Age|Expires/);
  });

  it("login/local refuses a wrong password (401 invalid_credentials) and a JSON body (422)", async () => {
    const wrong = await loginLocal(h.apiUrl, ALICE.email, "not the password");
    expect(wrong.status).toBe(401);
    const text = await wrong.text();
    expect(JSON.parse(text)).toMatchObject({
      code: "invalid_credentials",
      message: expect.any(String),
    });
    expect(text).not.toContain("not the password");
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const json = await postV1(h.apiUrl, "login/local", { username: ALICE.email, password: "x" });
    expect(json.status).toBe(422);
    const missing = await fetch(`${h.apiUrl}/v1/auth/login/local`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: ALICE.password }),
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ code: "validation_failed" });
  });

  it("me answers for the access_token cookie alone (as the frontend's server forwards it)", async () => {
    const token = alice.cookie.split(";")[0] ?? "";
    const response = await v1("me", { cookie: token });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: expect.any(String),
      email: ALICE.email,
      system_role: "admin",
      needs_setup: false,
      oauth_provider: null,
    });
    const anonymous = await v1("me");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "not_authenticated" });
  });

  it("the two cookie names are one session mechanism: each route family accepts the other's", async () => {
    const fawn = sessionFrom(await postJson(`${h.apiUrl}/auth/login`, ALICE));
    expect((await v1("me", cookieHeaders(fawn, false))).status).toBe(200);
    const me = await fetch(`${h.apiUrl}/auth/me`, { headers: cookieHeaders(alice, false) });
    expect(await me.json()).toMatchObject({ user: { email: ALICE.email }, via: "session" });
    const thread = await postJson(`${h.apiUrl}/threads`, {}, cookieHeaders(alice));
    expect(thread.status).toBe(200);
  });

  it("keeps the CSRF rules: no pair, no write; another site's page cannot log in", async () => {
    expect((await postJson(`${h.apiUrl}/threads`, {}, cookieHeaders(alice, false))).status).toBe(
      403,
    );
    const change = await postV1(
      h.apiUrl,
      "change-password",
      { current_password: ALICE.password, new_password: "another long password" },
      cookieHeaders(alice, false),
    );
    expect(change.status).toBe(403);
    expect(await change.json()).toMatchObject({ code: "forbidden" });
    const evil = await loginLocal(
      h.apiUrl,
      ALICE.email,
      ALICE.password,
      {},
      { origin: "https://evil.example" },
    );
    expect(evil.status).toBe(403);
    const own = await loginLocal(h.apiUrl, ALICE.email, ALICE.password, {}, { origin: h.url });
    expect(own.status).toBe(200);
  });
});

describe("change-password and logout", () => {
  const NEW_PASSWORD = "bob's brand new password";
  let bob: BrowserSession;
  beforeAll(async () => {
    bob = referenceSessionFrom(await loginLocal(h.apiUrl, BOB.email, BOB.password));
  });

  it("refuses a wrong current password with 400 (the session stays) and an email change", async () => {
    const wrong = await postV1(
      h.apiUrl,
      "change-password",
      { current_password: "not it at all", new_password: NEW_PASSWORD },
      cookieHeaders(bob),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: "invalid_credentials" });
    const email = await postV1(
      h.apiUrl,
      "change-password",
      { current_password: BOB.password, new_password: NEW_PASSWORD, new_email: "x@example.org" },
      cookieHeaders(bob),
    );
    expect(email.status).toBe(422);
    expect((await v1("me", cookieHeaders(bob, false))).status).toBe(200);
  });

  it("changes the password, ends the old sessions and signs this browser in afresh", async () => {
    const other = referenceSessionFrom(await loginLocal(h.apiUrl, BOB.email, BOB.password));
    const response = await postV1(
      h.apiUrl,
      "change-password",
      { current_password: BOB.password, new_password: NEW_PASSWORD, new_email: BOB.email },
      cookieHeaders(bob),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Password changed successfully" });
    const fresh = referenceSessionFrom(response);
    expect((await v1("me", cookieHeaders(fresh, false))).status).toBe(200);
    expect((await v1("me", cookieHeaders(bob, false))).status).toBe(401);
    expect((await v1("me", cookieHeaders(other, false))).status).toBe(401);
    expect((await loginLocal(h.apiUrl, BOB.email, BOB.password)).status).toBe(401);
    expect((await loginLocal(h.apiUrl, BOB.email, NEW_PASSWORD)).status).toBe(200);
    bob = fresh;
  });

  it("logout ends the session, clears both cookie names and needs no CSRF header", async () => {
    const response = await fetch(`${h.apiUrl}/v1/auth/logout`, {
      method: "POST",
      headers: { cookie: bob.cookie },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Successfully logged out" });
    expect(cookieLine(response, "access_token")).toMatch(/^access_token=;/);
    expect(cookieLine(response, "fawn_session")).toMatch(/^fawn_session=;/);
    expect((await v1("me", cookieHeaders(bob, false))).status).toBe(401);
    expect((await postV1(h.apiUrl, "logout", {})).status).toBe(200);
  });
});

describe("failed-login limit", () => {
  it("counts v1 and /api/auth failures together and answers 429 with Retry-After", async () => {
    const carol = { email: "carol@example.org", password: "carol long password" };
    expect((await postV1(h.apiUrl, "register", carol)).status).toBe(201);
    // auth.login_max_failures: 5 per (address, account).
    for (let i = 0; i < 3; i += 1) {
      expect((await loginLocal(h.apiUrl, carol.email, `wrong ${i}`)).status).toBe(401);
    }
    for (let i = 0; i < 2; i += 1) {
      const fawn = await postJson(`${h.apiUrl}/auth/login`, {
        email: carol.email,
        password: `bad ${i}`,
      });
      expect(fawn.status).toBe(401);
    }
    const locked = await loginLocal(h.apiUrl, carol.email, carol.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.json()).toMatchObject({
      code: "too_many_requests",
      detail: expect.any(String),
    });
  });

  it("counts wrong current passwords at change-password like failed logins", async () => {
    const dave = { email: "dave@example.org", password: "dave long password" };
    const session = referenceSessionFrom(await postV1(h.apiUrl, "register", dave));
    const change = (current: string) =>
      postV1(
        h.apiUrl,
        "change-password",
        { current_password: current, new_password: "dave new password" },
        cookieHeaders(session),
      );
    for (let i = 0; i < 5; i += 1) expect((await change(`wrong ${i}`)).status).toBe(400);
    expect((await change(dave.password)).status).toBe(429);
    expect((await loginLocal(h.apiUrl, dave.email, dave.password)).status).toBe(429);
  });
});
