/** Which store counts failed logins: Redis when configured, else the SQL database, else memory. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStores } from "../../src/app/create-fawn.js";
import { loginAttemptStoreOf } from "../../src/app/login-attempt-store-of.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { MemoryLoginAttemptStore } from "../../src/stores/memory/login-attempt-store.js";
import { RedisLoginAttemptStore } from "../../src/stores/redis/login-attempt-store.js";
import { SqlLoginAttemptStore } from "../../src/stores/sql/login-attempt-store.js";

describe("loginAttemptStoreOf", () => {
  it("picks Redis when stream_bridge.redis_url is set, else SQL stores' database, else memory", async () => {
    const home = await mkdtemp(join(tmpdir(), "fawn-login-store-of-"));
    const config = (extra: Record<string, unknown>) =>
      parseConfig(extra, { env: { FAWN_HOME: home }, cwd: home }).config;
    const memory = await openStores("memory:", home);
    const sqlite = await openStores(`sqlite:${join(home, "fawn.db")}`, home);
    try {
      const redis = loginAttemptStoreOf(
        config({ stream_bridge: { redis_url: "redis://127.0.0.1:1" } }),
        sqlite,
      );
      expect(redis).toBeInstanceOf(RedisLoginAttemptStore);
      await redis.close();
      expect(loginAttemptStoreOf(config({}), sqlite)).toBeInstanceOf(SqlLoginAttemptStore);
      expect(loginAttemptStoreOf(config({}), memory)).toBeInstanceOf(MemoryLoginAttemptStore);
    } finally {
      await Promise.all([memory.close(), sqlite.close()]);
      await rm(home, { recursive: true, force: true });
    }
  });
});
