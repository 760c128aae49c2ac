import { join } from "node:path";
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import { FileOwnershipStore } from "./file-ownership-store.js";
import { MemoryOwnershipStore } from "./memory-ownership-store.js";
import type { LeaseTiming, SandboxOwnershipStore } from "./ownership-store.js";
import { DEFAULT_OWNERSHIP_KEY_PREFIX, RedisOwnershipStore } from "./redis-ownership-store.js";

/** `sandbox.ownership` (reference keys, plus `file` and its `dir`). */
export const ownershipConfigSchema = z.strictObject({
  type: z.enum(["memory", "file", "redis"]).optional(),
  redis_url: z.string().min(1).optional(),
  renewal_interval_seconds: z.number().positive().default(30),
  ttl_multiplier: z.number().min(2).default(4),
  key_prefix: z.string().min(1).default(DEFAULT_OWNERSHIP_KEY_PREFIX),
  /** File store folder (default `$FAWN_HOME/sandbox-leases`). */
  dir: z.string().min(1).optional(),
});

export type OwnershipConfig = z.output<typeof ownershipConfigSchema>;

export function parseOwnershipConfig(section: unknown): OwnershipConfig {
  const parsed = ownershipConfigSchema.safeParse(section ?? {});
  if (!parsed.success) {
    throw new ConfigError(`sandbox.ownership is invalid: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

export interface OwnershipStoreContext {
  home: string;
  /** The stream bridge's Redis, used when `sandbox.ownership` names no store. */
  streamBridgeRedisUrl?: string;
}

export function leaseTimingOf(config: OwnershipConfig): LeaseTiming {
  return {
    renewalIntervalMs: config.renewal_interval_seconds * 1000,
    ttlMultiplier: config.ttl_multiplier,
  };
}

/**
 * The configured store: explicit `type`; else Redis when a Redis URL is known (ours or the stream
 * bridge's — processes sharing a bridge share sandboxes too); else memory (one process).
 */
export function createOwnershipStore(
  config: OwnershipConfig,
  context: OwnershipStoreContext,
): SandboxOwnershipStore {
  const timing = leaseTimingOf(config);
  const redisUrl = config.redis_url ?? context.streamBridgeRedisUrl;
  const type = config.type ?? (redisUrl ? "redis" : "memory");
  switch (type) {
    case "memory":
      return new MemoryOwnershipStore({ timing });
    case "file":
      return new FileOwnershipStore({
        dir: config.dir ?? join(context.home, "sandbox-leases"),
        timing,
      });
    case "redis":
      if (!redisUrl) {
        throw new ConfigError(
          "sandbox.ownership.type is redis but no Redis URL is set; set sandbox.ownership.redis_url or stream_bridge.redis_url.",
        );
      }
      return new RedisOwnershipStore({ url: redisUrl, timing, keyPrefix: config.key_prefix });
  }
}
