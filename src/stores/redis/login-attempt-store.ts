import { Redis } from "ioredis";
import { StoreError } from "../../core/errors.js";
import {
  type AttemptCounter,
  type LoginAttemptStore,
  type LoginGate,
  secondsUntil,
} from "../../ports/login-attempt-store.js";
import { closeConnection } from "./connections.js";
import { LuaScript } from "./lua-script.js";

export const DEFAULT_LOGIN_KEY_PREFIX = "fawn:login:";

/**
 * KEYS: the counters (hashes `f` failures, `r` resets-at ms). ARGV: now, window, then one limit per
 * key. Returns 0 when counted, else the latest reset time among the full counters.
 */
const TAKE_SOURCE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local latest = 0
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'f', 'r')
  local f, r = tonumber(v[1]), tonumber(v[2])
  if f and r and r > now and f >= tonumber(ARGV[i + 2]) and r > latest then latest = r end
end
if latest > 0 then return latest end
for _, key in ipairs(KEYS) do
  local r = tonumber(redis.call('HGET', key, 'r'))
  if r and r > now then
    redis.call('HINCRBY', key, 'f', 1)
  else
    redis.call('HSET', key, 'f', 1, 'r', now + window)
    redis.call('PEXPIRE', key, window)
  end
end
return 0
`;

/** KEYS: refund counters, then clear counters. ARGV: now, how many KEYS are refunds. */
const SETTLE_SOURCE = `
local now = tonumber(ARGV[1])
local refunds = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  if i <= refunds then
    local v = redis.call('HMGET', key, 'f', 'r')
    local f, r = tonumber(v[1]), tonumber(v[2])
    if f and r and r > now and f > 0 then redis.call('HINCRBY', key, 'f', -1) end
  else
    redis.call('DEL', key)
  end
end
return 0
`;

export interface RedisLoginAttemptStoreOptions {
  url: string;
  /** Prepended to every key (default `fawn:login:`); tests use a unique one per file. */
  keyPrefix?: string;
}

/**
 * Failed-login counters in Redis, shared by every process using the server: each attempt is one
 * script (atomic on the server). Keys expire with their window. The connection opens on first
 * use, so a server that never sees a login never connects.
 */
export class RedisLoginAttemptStore implements LoginAttemptStore {
  private readonly client: Redis;
  private readonly prefix: string;
  /** Scripts by key count (the count is part of an EVALSHA call). */
  private readonly scripts = new Map<string, LuaScript>();

  constructor(options: RedisLoginAttemptStoreOptions) {
    this.prefix = options.keyPrefix ?? DEFAULT_LOGIN_KEY_PREFIX;
    this.client = new Redis(options.url, {
      lazyConnect: true,
      connectionName: "fawn-login-attempts",
      // A login waits for at most one retry while Redis is away; then it answers 503.
      maxRetriesPerRequest: 1,
    });
    // Failures reach callers as rejected commands; without this ioredis prints every reconnect.
    this.client.on("error", () => undefined);
  }

  async take(
    counters: readonly AttemptCounter[],
    windowMs: number,
    nowMs: number,
  ): Promise<LoginGate> {
    const keys = counters.map((counter) => this.prefix + counter.key);
    const limits = counters.map((counter) => counter.limit);
    const reply = await this.run("take", TAKE_SOURCE, keys, [nowMs, windowMs, ...limits]);
    const latest = Number(reply);
    return latest > 0
      ? { allowed: false, retryAfterSeconds: secondsUntil(latest, nowMs) }
      : { allowed: true };
  }

  async settle(refund: readonly string[], clear: readonly string[], nowMs: number): Promise<void> {
    const keys = [...refund, ...clear].map((key) => this.prefix + key);
    if (keys.length === 0) return;
    await this.run("settle", SETTLE_SOURCE, keys, [nowMs, refund.length]);
  }

  async close(): Promise<void> {
    await closeConnection(this.client);
  }

  private async run(
    name: string,
    source: string,
    keys: string[],
    args: Array<string | number>,
  ): Promise<unknown> {
    const id = `${name}/${keys.length}`;
    let script = this.scripts.get(id);
    if (script === undefined) {
      script = new LuaScript(source, keys.length);
      this.scripts.set(id, script);
    }
    try {
      return await script.run(this.client, keys, args);
    } catch (error) {
      throw new StoreError(`Could not count a login attempt in Redis: ${describe(error)}`, {
        cause: error,
      });
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
