/**
 * `GET /health/ready` with the Redis stream bridge (a private `redis-server`): 200 while Redis
 * answers, 503 `store_unavailable` (`bridge: "down"`) while it is gone, 200 once it is back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";
import { startPrivateRedis } from "../helpers/redis.js";

const redis = await startPrivateRedis();
const opened: ServedGateway[] = [];

afterAll(async () => {
  for (const served of opened.splice(0)) await served.close();
  await redis?.stop();
});

describe.skipIf(redis === null)("GET /health/ready with Redis", () => {
  it("is 503 while Redis is unreachable and 200 once it is back", async () => {
    const url = redis?.url ?? "";
    const served = await startServedGateway({
      config: () => ({ stream_bridge: { redis_url: url }, sandbox: { use: "local" } }),
    });
    opened.push(served);
    const ready = await fetch(`${served.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", store: "up", bridge: "up" });

    await redis?.stop();
    const down = await fetch(`${served.url}/health/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      code: "store_unavailable",
      store: "up",
      bridge: "down",
    });
    expect((await fetch(`${served.url}/health/live`)).status).toBe(200);

    await redis?.restartEmpty();
    let back = 0;
    // ioredis reconnects on its own schedule; readiness follows once it has.
    for (let attempt = 0; attempt < 100 && back !== 200; attempt += 1) {
      back = (await fetch(`${served.url}/health/ready`)).status;
      if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back).toBe(200);
  }, 60_000);
});
