/**
 * The reference's `/api/v1/auth/*` under the other settings: closed registration (the first
 * account through `initialize`, then `registration_disabled`) and auth disabled (the probes
 * answer for the default user, the account routes say why they cannot).
 */
import { describe, expect, it } from "vitest";
import { testLocalAuth } from "../auth/helpers/local-auth.js";
import { loginLocal, postV1 } from "../auth/helpers/reference-session.js";
import { startGatewayHarness } from "./helpers/gateway-harness.js";

const ALICE = { email: "alice@example.org", password: "alice long password" };
const BOB = { email: "bob@example.org", password: "bob long password" };

describe("closed registration", () => {
  it("registers nobody after the first account and says so in setup-status", async () => {
    const closed = await startGatewayHarness({
      auth: testLocalAuth({ allow_registration: false }).provider,
    });
    try {
      const status = await fetch(`${closed.apiUrl}/v1/auth/setup-status`);
      expect(await status.json()).toEqual({ needs_setup: true, registration_enabled: false });
      const first = await postV1(closed.apiUrl, "initialize", ALICE);
      expect(first.status).toBe(201);
      // Not in auth.admins: a plain user.
      expect(await first.json()).toMatchObject({ system_role: "user" });
      const second = await postV1(closed.apiUrl, "register", BOB);
      expect(second.status).toBe(403);
      expect(await second.json()).toMatchObject({
        code: "registration_disabled",
        message: expect.any(String),
      });
    } finally {
      await closed.close();
    }
  });
});

describe("auth disabled", () => {
  it("answers the probes with the default user and refuses the account routes with a reason", async () => {
    const open = await startGatewayHarness();
    try {
      const get = (route: string) => fetch(`${open.apiUrl}/v1/auth/${route}`);
      expect(await (await get("setup-status")).json()).toEqual({
        needs_setup: false,
        registration_enabled: false,
      });
      expect(await (await get("providers")).json()).toEqual({ providers: [] });
      expect(await (await get("me")).json()).toEqual({
        id: "default",
        email: "default@fawn.local",
        system_role: "admin",
        needs_setup: false,
        oauth_provider: null,
      });
      expect((await postV1(open.apiUrl, "logout", {})).status).toBe(200);
      const login = await loginLocal(open.apiUrl, ALICE.email, ALICE.password);
      expect(login.status).toBe(400);
      expect(await login.json()).toMatchObject({
        detail: expect.stringMatching(/auth\.mode: local/),
      });
    } finally {
      await open.close();
    }
  });
});
