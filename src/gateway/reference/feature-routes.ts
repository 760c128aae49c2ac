import { Hono } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/** The reference UI's feature flags: each one a surface it shows only when the server has it. */
export interface FeatureFlags {
  agents_api: { enabled: boolean };
  /** Live agentic browser control: Fawn has none. */
  browser_control: { enabled: boolean };
  /** The durable MCP task runtime: Fawn has none. */
  mcp_tasks: { enabled: boolean };
}

export function featureFlags(config: GatewayServices["config"]): FeatureFlags {
  return {
    agents_api: { enabled: config.agents_api.enabled === true },
    browser_control: { enabled: false },
    mcp_tasks: { enabled: false },
  };
}

/** `GET /features`: what this server really serves, so the UI never calls a missing route. */
export function featureRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/features", (c) => c.json(featureFlags(s.config)));
  return app;
}
