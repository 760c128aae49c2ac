/** The ownership-store contract on every store: memory, file and Redis. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import { FileOwnershipStore } from "../../src/sandbox/ownership/file-ownership-store.js";
import {
  MemoryLeaseTable,
  MemoryOwnershipStore,
} from "../../src/sandbox/ownership/memory-ownership-store.js";
import { RedisOwnershipStore } from "../../src/sandbox/ownership/redis-ownership-store.js";
import { describeSandboxOwnershipStore } from "../conformance/sandbox-ownership-store.js";
import {
  deleteKeysWithPrefix,
  openTestRedis,
  requireTestRedis,
  uniqueKeyPrefix,
} from "../helpers/redis.js";

const timing = { renewalIntervalMs: 30_000, ttlMultiplier: 4 };
const ttlMs = 120_000;

describeSandboxOwnershipStore("memory", async () => {
  const clock = new ManualClock();
  const table = new MemoryLeaseTable();
  return {
    makeStore: (ownerId) => new MemoryOwnershipStore({ ownerId, clock, table, timing }),
    expireLeases: async () => clock.advance(ttlMs + 1),
    crossProcess: false,
    cleanup: async () => undefined,
  };
});

describeSandboxOwnershipStore("file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "fawn-leases-"));
  const clock = new ManualClock();
  return {
    makeStore: (ownerId) => new FileOwnershipStore({ dir, ownerId, clock, timing }),
    expireLeases: async () => clock.advance(ttlMs + 1),
    crossProcess: true,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

const redisUrl = await requireTestRedis();

describe.runIf(redisUrl !== null)("Redis ownership store", () => {
  const url = redisUrl ?? "";
  const keyPrefix = uniqueKeyPrefix("sandbox-owner").slice(0, -1);

  describeSandboxOwnershipStore("redis", async () => ({
    makeStore: (ownerId) => new RedisOwnershipStore({ url, ownerId, keyPrefix, timing }),
    // Shortens every lease's server-side TTL to 1 ms: the real expiry mechanism, without the wait.
    expireLeases: async () => {
      const client = openTestRedis(url);
      await client.connect();
      try {
        let cursor = "0";
        do {
          const [next, keys] = await client.scan(cursor, "MATCH", `${keyPrefix}:*`, "COUNT", 500);
          cursor = next;
          for (const key of keys) await client.pexpire(key, 1);
        } while (cursor !== "0");
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        client.disconnect();
      }
    },
    crossProcess: true,
    cleanup: async () => {
      await deleteKeysWithPrefix(url, `${keyPrefix}:`);
    },
  }));

  it("stores each lease as own:/del:<owner> with the configured TTL", async () => {
    const store = new RedisOwnershipStore({ url, ownerId: "owner-ttl", keyPrefix, timing });
    const client = openTestRedis(url);
    await client.connect();
    try {
      await store.take("sb-ttl");
      expect(await client.get(`${keyPrefix}:sb-ttl`)).toBe("own:owner-ttl");
      const pttl = await client.pttl(`${keyPrefix}:sb-ttl`);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(ttlMs);
      await store.claim("sb-ttl", { forDestroy: true });
      expect(await client.get(`${keyPrefix}:sb-ttl`)).toBe("del:owner-ttl");
    } finally {
      client.disconnect();
      await store.close();
      await deleteKeysWithPrefix(url, `${keyPrefix}:`);
    }
  });
});
