import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/errors.js";
import { createOwnershipStore, parseOwnershipConfig } from "./create-ownership-store.js";
import { FileOwnershipStore } from "./file-ownership-store.js";
import { MemoryOwnershipStore } from "./memory-ownership-store.js";
import { RedisOwnershipStore } from "./redis-ownership-store.js";

const context = { home: "/srv/fawn" };

describe("createOwnershipStore", () => {
  it("uses memory by default, Redis when a Redis URL is known, or what the config names", async () => {
    expect(createOwnershipStore(parseOwnershipConfig(undefined), context)).toBeInstanceOf(
      MemoryOwnershipStore,
    );
    expect(createOwnershipStore(parseOwnershipConfig({ type: "file" }), context)).toBeInstanceOf(
      FileOwnershipStore,
    );
    const redis = createOwnershipStore(parseOwnershipConfig({}), {
      ...context,
      streamBridgeRedisUrl: "redis://127.0.0.1:1",
    });
    expect(redis).toBeInstanceOf(RedisOwnershipStore);
    await redis.close();
  });

  it("rejects bad settings with a config error", () => {
    expect(() => parseOwnershipConfig({ ttl_multiplier: 1 })).toThrow(ConfigError);
    expect(() => parseOwnershipConfig({ type: "etcd" })).toThrow(ConfigError);
    expect(() => createOwnershipStore(parseOwnershipConfig({ type: "redis" }), context)).toThrow(
      ConfigError,
    );
  });
});
