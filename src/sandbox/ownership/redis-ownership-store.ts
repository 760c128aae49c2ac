import { Redis } from "ioredis";
import { isFawnError } from "../../core/errors.js";
import {
  assertValidSandboxId,
  DEFAULT_LEASE_TIMING,
  type LeaseTiming,
  leaseTtlMs,
  newOwnerId,
  OwnershipBackendError,
  type RenewOutcome,
  type SandboxOwnershipStore,
} from "./ownership-store.js";

export const DEFAULT_OWNERSHIP_KEY_PREFIX = "fawn:sandbox:owner";

// Values are `own:<owner>` or `del:<owner>` with a PX TTL; each mutation is one atomic script.
const TAKE = `
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 4) == 'del:' then return 0 end
redis.call('SET', KEYS[1], 'own:' .. ARGV[1], 'PX', ARGV[2])
return 1`;

const CLAIM = `
local v = redis.call('GET', KEYS[1])
if v then
  if string.sub(v, 5) ~= ARGV[1] then return 0 end
  if string.sub(v, 1, 4) == 'del:' and ARGV[3] ~= '1' then return 0 end
end
local state = 'own:'
if ARGV[3] == '1' then state = 'del:' end
redis.call('SET', KEYS[1], state .. ARGV[1], 'PX', ARGV[2])
return 1`;

const RENEW = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
if v ~= 'own:' .. ARGV[1] then return -1 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const RELEASE = `
local v = redis.call('GET', KEYS[1])
if v == 'own:' .. ARGV[1] or v == 'del:' .. ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

export type RedisOwnershipStoreOptions = {
  ownerId?: string;
  timing?: LeaseTiming;
  /** Default `fawn:sandbox:owner`; keys are `<prefix>:<sandbox id>`. */
  keyPrefix?: string;
} & ({ url: string } | { client: Redis });

/** Leases in Redis, shared by every `fawn serve` process that talks to the same server. */
export class RedisOwnershipStore implements SandboxOwnershipStore {
  readonly ownerId: string;
  readonly supportsCrossProcess = true;
  private readonly client: Redis;
  private readonly ownsClient: boolean;
  private readonly ttlMs: number;
  private readonly keyPrefix: string;

  constructor(options: RedisOwnershipStoreOptions) {
    this.ownerId = options.ownerId ?? newOwnerId();
    this.ttlMs = leaseTtlMs(options.timing ?? DEFAULT_LEASE_TIMING);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_OWNERSHIP_KEY_PREFIX;
    if ("client" in options) {
      this.client = options.client;
      this.ownsClient = false;
    } else {
      this.client = new Redis(options.url, {
        connectionName: "fawn-sandbox-ownership",
        connectTimeout: 5_000,
        commandTimeout: 5_000,
        maxRetriesPerRequest: 1,
      });
      // Failures reach callers as rejected commands; don't print every reconnect attempt.
      this.client.on("error", () => undefined);
      this.ownsClient = true;
    }
  }

  async take(sandboxId: string): Promise<boolean> {
    return (await this.run("take", TAKE, sandboxId, [this.ttlMs])) === 1;
  }

  async claim(sandboxId: string, options: { forDestroy?: boolean } = {}): Promise<boolean> {
    const forDestroy = options.forDestroy ? "1" : "0";
    return (await this.run("claim", CLAIM, sandboxId, [this.ttlMs, forDestroy])) === 1;
  }

  async renew(sandboxId: string): Promise<RenewOutcome> {
    const answer = await this.run("renew", RENEW, sandboxId, [this.ttlMs]);
    return answer === 1 ? "renewed" : answer === 0 ? "lapsed" : "lost";
  }

  async release(sandboxId: string): Promise<void> {
    await this.run("release", RELEASE, sandboxId, []);
  }

  async owner(sandboxId: string): Promise<string | null> {
    const key = this.key(sandboxId);
    try {
      const value = await this.client.get(key);
      return value === null ? null : value.slice(4);
    } catch (error) {
      throw this.backendError("read", sandboxId, error);
    }
  }

  async close(): Promise<void> {
    if (!this.ownsClient) return;
    if (this.client.status === "ready")
      await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }

  private async run(
    action: string,
    script: string,
    sandboxId: string,
    args: Array<string | number>,
  ): Promise<unknown> {
    const key = this.key(sandboxId);
    try {
      return await this.client.eval(script, 1, key, this.ownerId, ...args);
    } catch (error) {
      throw this.backendError(action, sandboxId, error);
    }
  }

  private key(sandboxId: string): string {
    return `${this.keyPrefix}:${assertValidSandboxId(sandboxId)}`;
  }

  private backendError(action: string, sandboxId: string, error: unknown): Error {
    if (isFawnError(error)) return error;
    return new OwnershipBackendError(
      `Could not ${action} the ownership lease of sandbox ${sandboxId} in Redis.`,
      { cause: error },
    );
  }
}
