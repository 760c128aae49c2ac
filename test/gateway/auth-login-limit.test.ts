/**
 * The failed-login limit over real HTTP, as an attacker meets it: failures count per (address,
 * account), per account and per address, and no other account's successful login clears them.
 * An attacker with an account of their own who logs in between guesses is still locked out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, registerUser } from "../auth/helpers/http-session.js";
import { type TestLocalAuth, testLocalAuth } from "../auth/helpers/local-auth.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const VICTIM = { email: "victim@example.org", password: "victim's long password" };
const ATTACKER = { email: "attacker@example.org", password: "attacker's own password" };

let h: GatewayHarness;
let auth: TestLocalAuth;

beforeAll(async () => {
  auth = testLocalAuth({
    login_max_failures: 5,
    login_max_failures_per_account: 8,
    login_max_failures_per_address: 15,
    login_lockout_seconds: 600,
    trust_proxy: true,
  });
  h = await startGatewayHarness({ auth: auth.provider });
  await registerUser(h.apiUrl, VICTIM.email, VICTIM.password);
  await auth.services.accounts.register(ATTACKER.email, ATTACKER.password, true);
});
afterAll(async () => {
  await h?.close();
});

const login = (credentials: { email: string; password: string }, ip: string) =>
  postJson(`${h.apiUrl}/auth/login`, credentials, { "x-forwarded-for": ip });

describe("failed-login limit against an attacker", () => {
  it("locks the attacker out of the victim although they log in to their own account every 4 guesses", async () => {
    const ip = "198.51.100.10";
    const statuses: number[] = [];
    for (let guess = 0; guess < 200; guess++) {
      if (guess % 4 === 0) expect((await login(ATTACKER, ip)).status).toBe(200);
      statuses.push((await login({ ...VICTIM, password: `guess ${guess}` }, ip)).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    // Even the right password is refused from there now, with a Retry-After and a detail.
    const refused = await login(VICTIM, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      detail: expect.stringMatching(/try again in \d+ s/),
      code: "too_many_requests",
    });
    // The attacker's own account and the victim from another address are not locked.
    expect((await login(ATTACKER, ip)).status).toBe(200);
    expect((await login(VICTIM, "198.51.100.11")).status).toBe(200);
  });

  it("locks an account guessed at from many addresses, from every address", async () => {
    const target = { email: "target@example.org", password: "target's long password" };
    await auth.services.accounts.register(target.email, target.password, true);
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess++) {
      const ip = `203.0.113.${guess}`;
      statuses.push((await login({ ...target, password: `guess ${guess}` }, ip)).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(8);
    expect(statuses.slice(8).every((status) => status === 429)).toBe(true);
    expect((await login(target, "203.0.113.200")).status).toBe(429);
  });

  it("limits one address guessing at many accounts", async () => {
    const ip = "192.0.2.77";
    const statuses: number[] = [];
    for (let n = 0; n < 20; n++) {
      const email = `sprayed-${n}@example.org`;
      statuses.push((await login({ email, password: "Summer2026!" }, ip)).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(15);
    expect(statuses.slice(15).every((status) => status === 429)).toBe(true);
  });

  it("a successful login does not count as a failure on its account or address", async () => {
    const ip = "192.0.2.200";
    // More successes than the account and address limits: none of them counted as a failure.
    for (let n = 0; n < 16; n++) expect((await login(ATTACKER, ip)).status).toBe(200);
  });
});
