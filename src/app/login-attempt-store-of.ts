import type { FawnConfig } from "../core/config/schema.js";
import type { LoginAttemptStore } from "../ports/login-attempt-store.js";
import { MemoryLoginAttemptStore } from "../stores/memory/login-attempt-store.js";
import { RedisLoginAttemptStore } from "../stores/redis/login-attempt-store.js";
import { SqlLoginAttemptStore } from "../stores/sql/login-attempt-store.js";
import type { EmbeddableStores } from "./embeddable-stores.js";

/**
 * Where failed logins are counted, so that every process serving the same users enforces one
 * limit: Redis when `stream_bridge.redis_url` is set (a flood of guesses then costs the database
 * nothing), else the SQL database beside the run stores, else process memory.
 */
export function loginAttemptStoreOf(
  config: FawnConfig,
  stores: EmbeddableStores,
): LoginAttemptStore {
  const url = config.stream_bridge.redis_url;
  if (url) return new RedisLoginAttemptStore({ url });
  return stores.database === null
    ? new MemoryLoginAttemptStore()
    : new SqlLoginAttemptStore(stores.database);
}
