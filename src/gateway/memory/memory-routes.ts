import { Hono } from "hono";
import { MemoryStore } from "../../agent/memory/memory-store.js";
import { memoryQueueFor } from "../../agent/memory/memory-update-queue.js";
import { FawnPaths } from "../../core/paths.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/**
 * `GET /memory`: what Fawn remembers about the caller (summaries and facts); `DELETE /memory`:
 * forget it all — conversations still waiting to be turned into memory are dropped too, so
 * nothing comes back after a forget. Both answer the memory document.
 */
export function memoryRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { home } = s.config;
  const store = new MemoryStore(new FawnPaths(home), s.logger);

  app.get("/memory", async (c) => c.json(await store.read(c.get("principal").userId)));

  app.delete("/memory", async (c) => {
    const userId = c.get("principal").userId;
    memoryQueueFor(home, s.logger).forgetUser(userId);
    const cleared = await store.clear(userId);
    s.logger.info({ userId }, "memory forgotten");
    return c.json(cleared);
  });

  return app;
}
