import { Hono } from "hono";
import type { GatewayServices } from "./gateway-services.js";
import type { GatewayEnv } from "./http/gateway-env.js";

export const FAWN_VERSION = "0.1.0";

/** `GET /health` (liveness, public) and `GET /api/info` (what this server is). */
export function healthRoute(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/health", (c) => c.json({ status: "healthy", service: "fawn" }));
  return app;
}

export function infoRoute(s: GatewayServices, authMode: string): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/info", (c) =>
    c.json({
      name: "fawn",
      version: FAWN_VERSION,
      context: "js",
      agent: s.assistants.agent.kind,
      auth_mode: authMode,
      stream_bridge: s.fawn.bridge.supportsCrossProcess ? "cross-process" : "memory",
      flags: { assistants: true, crons: false, langsmith: false, thread_ttl: false },
    }),
  );
  return app;
}
