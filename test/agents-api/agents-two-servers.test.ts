/**
 * Custom agents are shared state: two gateways over one PostgreSQL database (as in a scaled-out
 * deployment) see the same user's agents and profile, an agent created on one is taken on the
 * other, and a concurrent update on both keeps both changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, cookieHeaders, registerUser } from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const postgres = await createPostgresTestDatabase("agents_two_servers");

describe.skipIf(postgres === null)("custom agents across two gateways (PostgreSQL)", () => {
  let a: GatewayHarness;
  let b: GatewayHarness;
  let session: BrowserSession;

  beforeAll(async () => {
    const url = postgres?.url ?? "";
    const config = {
      auth: { mode: "local", allow_registration: true },
      agents_api: { enabled: true },
    };
    a = await startGatewayHarness({ database: { url }, config, workerId: "worker-a" });
    b = await startGatewayHarness({ database: { url }, config, workerId: "worker-b" });
    session = await registerUser(a.apiUrl, "carol@example.org", "carol password");
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await postgres?.drop();
  });

  const call = async (server: GatewayHarness, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.apiUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...cookieHeaders(session) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === "" ? null : JSON.parse(text) };
  };

  it("sees on one server what the other wrote", async () => {
    expect((await call(a, "POST", "/agents", { name: "shared", soul: "S1" })).status).toBe(201);
    await call(a, "PUT", "/user-profile", { content: "Carol." });
    expect((await call(b, "GET", "/agents/shared")).json).toMatchObject({ soul: "S1" });
    expect((await call(b, "GET", "/user-profile")).json).toEqual({ content: "Carol." });
    expect((await call(b, "POST", "/agents", { name: "Shared" })).status).toBe(409);

    const [left, right] = await Promise.all([
      call(a, "PUT", "/agents/shared", { description: "from a" }),
      call(b, "PUT", "/agents/shared", { tool_groups: ["web"] }),
    ]);
    expect([left.status, right.status]).toEqual([200, 200]);
    expect((await call(a, "GET", "/agents/shared")).json).toMatchObject({
      description: "from a",
      tool_groups: ["web"],
      soul: "S1",
    });

    expect((await call(b, "DELETE", "/agents/shared")).status).toBe(204);
    expect((await call(a, "GET", "/agents/shared")).status).toBe(404);
  });
});
