/**
 * The reference's frontend reaches the gateway through its own server's rewrites: the browser's
 * `Origin` is the frontend's host, the gateway sees its own `Host` and the frontend's in
 * `X-Forwarded-Host`. With `auth.trust_proxy` the sign-in passes the same-origin check; without
 * it the sign-in is refused as cross-site, saying so.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cookieHeaders, postJson } from "../auth/helpers/http-session.js";
import { testLocalAuth } from "../auth/helpers/local-auth.js";
import { loginLocal, postV1, referenceSessionFrom } from "../auth/helpers/reference-session.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const FRONTEND = { origin: "http://localhost:3000", "x-forwarded-host": "localhost:3000" };
const ALICE = { email: "alice@example.org", password: "alice long password" };
let h: GatewayHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("behind the reference frontend's proxy", () => {
  it("signs in and writes with auth.trust_proxy", async () => {
    h = await startGatewayHarness({ auth: testLocalAuth({ trust_proxy: true }).provider });
    expect((await postV1(h.apiUrl, "initialize", ALICE, FRONTEND)).status).toBe(201);
    const login = await loginLocal(h.apiUrl, ALICE.email, ALICE.password, {}, FRONTEND);
    expect(login.status).toBe(200);
    const session = referenceSessionFrom(login);
    const thread = await postJson(
      `${h.apiUrl}/threads`,
      {},
      { ...FRONTEND, ...cookieHeaders(session) },
    );
    expect(thread.status).toBe(200);
  });

  it("refuses the sign-in as cross-site without auth.trust_proxy", async () => {
    h = await startGatewayHarness({ auth: testLocalAuth({ trust_proxy: false }).provider });
    const denied = await postV1(h.apiUrl, "initialize", ALICE, FRONTEND);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      code: "forbidden",
      detail: expect.stringContaining("auth.trust_proxy: true"),
    });
  });
});
