/**
 * Malformed requests to the reference's `/api/v1/auth/*`: every one answers a 4xx whose `detail`
 * is a sentence, never a 5xx, never echoes the password, and creates or changes no account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaders } from "../auth/helpers/http-session.js";
import { testLocalAuth } from "../auth/helpers/local-auth.js";
import { loginLocal, postV1, referenceSessionFrom } from "../auth/helpers/reference-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const SECRET = "do-not-echo-this-password";
const FORM = "application/x-www-form-urlencoded";
let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ auth: testLocalAuth({ allow_registration: true }).provider });
});
afterAll(async () => {
  await h?.close();
});

type Case = [label: string, route: string, contentType: string, body: string];

const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const json = (value: unknown) => JSON.stringify(value);

function jsonCases(route: string): Case[] {
  const cases: Array<[string, string]> = [
    ["not JSON", "{not json"],
    ["empty", ""],
    ["an array", "[]"],
    ["5,000 deep", deep],
    ["unknown field", json({ email: "a@example.org", password: SECRET, role: "admin" })],
    ["password too long", json({ email: "a@example.org", password: SECRET.repeat(2000) })],
    ["email not a string", json({ email: ["a@example.org"], password: SECRET })],
    [
      "remember_me not a boolean",
      json({ email: "a@example.org", password: SECRET, remember_me: "yes" }),
    ],
    ["new password too short", json({ current_password: SECRET, new_password: "short" })],
  ];
  return cases.map(([label, body]) => [`${route}: ${label}`, route, "application/json", body]);
}

const LOGIN_CASES: Case[] = [
  ["login: JSON", "login/local", "application/json", json({ username: "a", password: SECRET })],
  ["login: text", "login/local", "text/plain", `username=a&password=${SECRET}`],
  ["login: no password", "login/local", FORM, form({ username: "a@example.org" })],
  [
    "login: unknown field",
    "login/local",
    FORM,
    form({ username: "a@example.org", password: SECRET, admin: "1" }),
  ],
  [
    "login: remember_me not a boolean",
    "login/local",
    FORM,
    form({ username: "a@example.org", password: SECRET, remember_me: "maybe" }),
  ],
  [
    "login: huge username",
    "login/local",
    FORM,
    form({ username: "a".repeat(100_000), password: SECRET }),
  ],
  [
    "login: wrong grant_type",
    "login/local",
    FORM,
    form({ username: "a@example.org", password: SECRET, grant_type: "code" }),
  ],
];

async function expectRefused(label: string, response: Response): Promise<void> {
  const text = await response.text();
  expect({ label, client_error: response.status >= 400 && response.status < 500 }).toEqual({
    label,
    client_error: true,
  });
  expect(typeof (JSON.parse(text) as { detail: unknown }).detail, label).toBe("string");
  expect(text, label).not.toContain(SECRET);
}

describe("malformed v1 auth requests", () => {
  it("answer 4xx with a sentence in detail and create no account", async () => {
    const cases = [...jsonCases("register"), ...jsonCases("initialize"), ...LOGIN_CASES];
    for (const [label, route, contentType, body] of cases) {
      const response = await fetch(`${h.apiUrl}/v1/auth/${route}`, {
        method: "POST",
        headers: { "content-type": contentType },
        body,
      });
      await expectRefused(label, response);
    }
    const withFile = new FormData();
    withFile.set("username", "a@example.org");
    withFile.set("password", new Blob([SECRET]), "password.txt");
    const file = await fetch(`${h.apiUrl}/v1/auth/login/local`, { method: "POST", body: withFile });
    expect(file.status).toBe(422);
    expect(await file.json()).toMatchObject({ detail: expect.stringContaining("not a file") });
    const status = await fetch(`${h.apiUrl}/v1/auth/setup-status`);
    expect(await status.json()).toMatchObject({ needs_setup: true });
  });

  it("change-password: a signed-in caller's malformed bodies answer 4xx, the password stays", async () => {
    const email = "owner@example.org";
    const password = "owner long password";
    const session = referenceSessionFrom(await postV1(h.apiUrl, "initialize", { email, password }));
    for (const [label, route, contentType, body] of jsonCases("change-password")) {
      const response = await fetch(`${h.apiUrl}/v1/auth/${route}`, {
        method: "POST",
        headers: { "content-type": contentType, ...cookieHeaders(session) },
        body,
      });
      await expectRefused(label, response);
    }
    expect((await loginLocal(h.apiUrl, email, password)).status).toBe(200);
  });
});
