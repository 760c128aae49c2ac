import { Hono } from "hono";
import { errorBody } from "../core/errors.js";
import type { LogThrottle } from "../core/log-throttle.js";
import type { Logger } from "../core/logger.js";
import type { MetricsExposition } from "../ports/run-metrics.js";
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
  /** The stream bridge; one without `checkHealth` (process memory) is always up. */
  bridge?: { checkHealth?(): Promise<StoreHealth> };
  logger: Logger;
  throttle?: LogThrottle;
  /** True while the server drains for shutdown (readiness fails). */
  draining?: () => boolean;
}): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { database } = deps;
  // Liveness: the process answers. An orchestrator restarts it only when this stops answering.
  app.get("/health/live", (c) => c.json({ status: "alive", service: "fawn" }));
  // Readiness: send this server work. False while it drains, while migrations run, or while its
  // database or Redis (the stream bridge) is unreachable.
  app.get("/health/ready", async (c) => {
    if (deps.draining?.() === true) {
      return c.json(
        errorBody("server_draining", "The server is shutting down; send requests to another one."),
        503,
      );
    }
    if (database?.migrating?.() === true) {
      return c.json(
        errorBody("store_unavailable", "The database schema is being migrated; retry shortly."),
        503,
      );
    }
    const [store, bridge] = await Promise.all([
      database ? database.checkHealth() : upHealth(),
      deps.bridge?.checkHealth ? deps.bridge.checkHealth() : upHealth(),
    ]);
    const states = { store: store.up ? "up" : "down", bridge: bridge.up ? "up" : "down" };
    if (store.up && bridge.up) return c.json({ status: "ready", service: "fawn", ...states });
    const what = store.up ? "Redis (the stream bridge)" : "The database";
    return c.json(
      {
        ...errorBody("store_unavailable", `${what} is unavailable; retry once it is back.`),
        ...states,
      },
      503,
    );
  });
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

async function upHealth(): Promise<StoreHealth> {
  return { up: true };
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
        langsmith: s.config.tracing.langsmith.enabled,
        thread_ttl: false,
      },
    }),
  );
  return app;
}

/**
 * `GET /metrics`: the Prometheus text exposition. No user content (labels are kinds: graph,
 * status, model); still, it should face the operator's network only, not the internet.
 */
export function metricsRoute(metrics: MetricsExposition): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/metrics", async (c) => {
    const text = await metrics.render();
    return c.body(text, 200, { "content-type": metrics.contentType });
  });
  return app;
}
