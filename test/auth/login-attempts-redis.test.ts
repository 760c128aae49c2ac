/** The LoginAttemptStore contract on the Redis adapter (the shared test server, a key prefix of its own). */
import { afterAll, describe } from "vitest";
import { RedisLoginAttemptStore } from "../../src/stores/redis/login-attempt-store.js";
import { describeLoginAttemptStore } from "../conformance/login-attempt-store.js";
import { deleteKeysWithPrefix, requireTestRedis, uniqueKeyPrefix } from "../helpers/redis.js";

const url = await requireTestRedis();
const keyPrefix = uniqueKeyPrefix("login-attempts");

describe.skipIf(url === null)("Redis login attempts", () => {
  afterAll(async () => {
    if (url) await deleteKeysWithPrefix(url, keyPrefix);
  });
  describeLoginAttemptStore(
    "redis",
    async () => {
      if (url === null) throw new Error("no test Redis");
      return {
        store: new RedisLoginAttemptStore({ url, keyPrefix }),
        peer: new RedisLoginAttemptStore({ url, keyPrefix }),
      };
    },
    { shared: true },
  );
});
