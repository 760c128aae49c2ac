import { Hono } from "hono";
import type { GatewayEnv } from "../http/gateway-env.js";

/**
 * The reference UI's IM-channel reads, answered empty: Fawn has no IM channels yet, so there is
 * no provider to connect and no connection to list. The UI polls both and then shows nothing.
 */
export function channelRoutes(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/channels/providers", (c) => c.json({ enabled: false, providers: [] }));
  app.get("/channels/connections", (c) => c.json({ connections: [] }));
  return app;
}
