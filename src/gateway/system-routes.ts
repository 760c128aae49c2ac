import { Hono } from "hono";
import { errorBody } from "../core/errors.js";
import type { LogThrottle } from "../core/log-throttle.js";
import type { Logger } from "../core/logger.js";
import type { StoreDatabase, StoreHealth } from "../ports/store-database.js";
import type { GatewayServices } from "./gateway-services.js";
import type { GatewayEnv } from "./http/gateway-env.js";

export const FAWN_VERSION = "0.1.0";

/**
 * `GET /health` (public): 200 while the server can serve, 503 while its database is unreachable
 * or lost its schema (a probe that also restores a re-created database's schema), so an
 * orchestrator stops routing to it, or restarts it. `GET /api/info`: what this server is.
 */
export function healthRoute(deps: {
  /** The stores' database; null (process memory) is always up. */
  database: StoreDatabase | null;
  logger: Logger;
  throttle?: LogThrottle;
}): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { database } = deps;
  app.get("/health", async (c) => {
    const store: StoreHealth = database ? await database.checkHealth() : { up: true };
    if (store.up) return c.json({ status: "healthy", service: "fawn", store: "up" });
    const dropped = deps.throttle ? deps.throttle.admit("health: store down") : 0;
    if (dropped !== null) {
      deps.logger.warn(
        { reason: store.reason, ...(dropped > 0 ? { dropped } : {}) },
        "health: store down",
      );
    }
    return c.json(
      {
        status: "unhealthy",
        service: "fawn",
        store: "down",
        ...errorBody("store_unavailable", "The database is unavailable."),
      },
      503,
    );
  });
  return app;
}

export function infoRoute(s: GatewayServices, authMode: string): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/info", (c) =>
    c.json({
      name: "fawn",
      version: FAWN_VERSION,
      context: "js",
      agent: s.assistants.defaultKind,
      auth_mode: authMode,
      stream_bridge: s.runs.streamsAcrossProcesses() ? "cross-process" : "memory",
      flags: {
        assistants: true,
        crons: s.crons !== undefined,
        langsmith: false,
        thread_ttl: false,
      },
    }),
  );
  return app;
}
