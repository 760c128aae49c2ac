/**
 * One failed-login limit across gateway instances: two servers over one database (a shared
 * SQLite file; PostgreSQL) or one Redis count the same failures, so guesses spread over both
 * servers are locked out at the limit, on both.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisLoginAttemptStore } from "../../src/stores/redis/login-attempt-store.js";
import { postJson, registerUser } from "../auth/helpers/http-session.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { deleteKeysWithPrefix, requireTestRedis, uniqueKeyPrefix } from "../helpers/redis.js";
import {
  type GatewayHarness,
  type HarnessOptions,
  startGatewayHarness,
} from "./helpers/gateway-harness.js";

const VICTIM = { email: "victim@example.org", password: "victim's long password" };
const LIMIT = 4;
const authConfig = {
  auth: {
    mode: "local",
    allow_registration: true,
    trust_proxy: true,
    login_max_failures: LIMIT,
    login_lockout_seconds: 600,
  },
};

const postgres = await createPostgresTestDatabase("login_two_servers");
const redisUrl = await requireTestRedis();

/** Guesses alternate between the servers from one address; the (LIMIT+1)th is refused on both. */
function describeSharedLimit(
  name: string,
  options: () => Promise<{ a: HarnessOptions; b: HarnessOptions; cleanup?: () => Promise<void> }>,
  enabled = true,
): void {
  describe.skipIf(!enabled)(`one login limit across two gateways: ${name}`, () => {
    let a: GatewayHarness;
    let b: GatewayHarness;
    let cleanup: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const chosen = await options();
      cleanup = chosen.cleanup;
      a = await startGatewayHarness(chosen.a);
      b = await startGatewayHarness(chosen.b);
      await registerUser(a.apiUrl, VICTIM.email, VICTIM.password);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await cleanup?.();
    });

    const login = (server: GatewayHarness, password: string, ip = "198.51.100.7") =>
      postJson(
        `${server.apiUrl}/auth/login`,
        { email: VICTIM.email, password },
        {
          "x-forwarded-for": ip,
        },
      );

    it("counts failures on one server against the other", async () => {
      // The other server knows the user the first one registered: the stores are shared.
      expect((await login(b, VICTIM.password)).status).toBe(200);
      const statuses: number[] = [];
      for (let guess = 0; guess < LIMIT + 2; guess++) {
        statuses.push((await login(guess % 2 === 0 ? a : b, `guess ${guess}`)).status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
      for (const server of [a, b]) {
        const refused = await login(server, VICTIM.password);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await refused.json()).toMatchObject({ code: "too_many_requests" });
      }
      // Another address is not locked out by this one's guesses, on either server.
      expect((await login(a, VICTIM.password, "198.51.100.8")).status).toBe(200);
    });
  });
}

describeSharedLimit("one SQLite file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "fawn-login-two-"));
  const database = { url: `sqlite:${join(dir, "fawn.db")}` };
  return {
    a: { database, config: authConfig, workerId: "server-a" },
    b: { database, config: authConfig, workerId: "server-b" },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describeSharedLimit(
  "PostgreSQL",
  async () => {
    if (postgres === null) throw new Error("no test PostgreSQL");
    const database = { url: postgres.url };
    return {
      a: { database, config: authConfig, workerId: "server-a" },
      b: { database, config: authConfig, workerId: "server-b" },
      cleanup: () => postgres.drop(),
    };
  },
  postgres !== null,
);

describeSharedLimit(
  "Redis (memory stores would not share the limit)",
  async () => {
    if (postgres === null || redisUrl === null) throw new Error("no test PostgreSQL or Redis");
    // Users in one PostgreSQL database, counters in Redis: each server has its own Redis store.
    const shared = await createPostgresTestDatabase("login_two_servers_redis");
    if (shared === null) throw new Error("no test PostgreSQL");
    const keyPrefix = uniqueKeyPrefix("login-two");
    const stores = [0, 1].map(() => new RedisLoginAttemptStore({ url: redisUrl, keyPrefix }));
    const database = { url: shared.url };
    return {
      a: { database, config: authConfig, workerId: "server-a", loginAttempts: stores[0] },
      b: { database, config: authConfig, workerId: "server-b", loginAttempts: stores[1] },
      cleanup: async () => {
        await Promise.all(stores.map((store) => store.close()));
        await deleteKeysWithPrefix(redisUrl, keyPrefix);
        await shared.drop();
      },
    };
  },
  postgres !== null && redisUrl !== null,
);
