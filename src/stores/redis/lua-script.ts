import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { isReplyError } from "./redis-errors.js";

/**
 * A server-side script run by its SHA1 (`EVALSHA`), falling back to `EVAL` once when the server
 * does not know it yet (fresh server, `SCRIPT FLUSH`, failover): the common path sends only the
 * hash, and every call is still atomic on the server.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(
    private readonly source: string,
    private readonly keyCount: number,
  ) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(client: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    if (keys.length !== this.keyCount) {
      throw new TypeError(`This script takes ${this.keyCount} keys, got ${keys.length}.`);
    }
    try {
      return await client.evalsha(this.sha, this.keyCount, ...keys, ...args);
    } catch (error) {
      if (!isReplyError(error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(this.source, this.keyCount, ...keys, ...args);
    }
  }
}
