/**
 * A run's producer lease lives in Redis (a hash next to its stream) rather than in process memory,
 * so any process can see who is producing a run's stream: the worker that started it, the
 * finalizer task it handed over to, or nobody any more. Each transition is one Lua script, so two
 * processes racing to start the same run's lease cannot both win.
 *
 * Hash fields: state (started | transferred | finished), owner (the finalizer task's name, once
 * transferred), instance (host:pid of the process that started it), updated_at (ISO time).
 */
import type { Redis } from "ioredis";
import { LuaScript } from "./lua-script.js";

export type ProducerLeaseStateName = "started" | "transferred" | "finished";

export interface RedisProducerLease {
  state: ProducerLeaseStateName;
  /** The task that owns the producer side after the transfer; null if never transferred. */
  owner: string | null;
  /** `host:pid` (or the configured name) of the process that started the lease. */
  instance: string | null;
  updatedAt: string | null;
}

const EXPIRE = `if tonumber(ARGV[1]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end`;

/** ARGV: ttl, instance, now. 1 if this call started the lease; 0 while another one is live. */
const START = new LuaScript(
  `local state = redis.call('HGET', KEYS[1], 'state')
if state and state ~= 'finished' then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'started', 'instance', ARGV[2], 'updated_at', ARGV[3])
${EXPIRE}
return 1`,
  1,
);

/** ARGV: ttl, owner, now. No-op unless a lease is live: there is nothing to hand over otherwise. */
const TRANSFER = new LuaScript(
  `local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'finished' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'transferred', 'owner', ARGV[2], 'updated_at', ARGV[3])
${EXPIRE}
return 1`,
  1,
);

/** ARGV: ttl, now. Keeps the owner, so the record says who finished it. */
const FINISH = new LuaScript(
  `local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'finished' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'finished', 'updated_at', ARGV[2])
${EXPIRE}
return 1`,
  1,
);

export interface LeaseTarget {
  client: Redis;
  key: string;
  ttlSeconds: number;
  now: string;
}

export async function startLease(target: LeaseTarget, instance: string): Promise<boolean> {
  const { client, key, ttlSeconds, now } = target;
  return (await START.run(client, [key], [ttlSeconds, instance, now])) === 1;
}

export async function transferLease(target: LeaseTarget, owner: string): Promise<void> {
  const { client, key, ttlSeconds, now } = target;
  await TRANSFER.run(client, [key], [ttlSeconds, owner, now]);
}

export async function finishLease(target: LeaseTarget): Promise<void> {
  const { client, key, ttlSeconds, now } = target;
  await FINISH.run(client, [key], [ttlSeconds, now]);
}

export async function readLease(
  client: Redis,
  key: string,
): Promise<RedisProducerLease | undefined> {
  const fields = await client.hgetall(key);
  const state = fields.state;
  if (state !== "started" && state !== "transferred" && state !== "finished") return undefined;
  return {
    state,
    owner: fields.owner ?? null,
    instance: fields.instance ?? null,
    updatedAt: fields.updated_at ?? null,
  };
}
