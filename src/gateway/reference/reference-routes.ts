import { Hono } from "hono";
import { OneShotModel } from "../../agent/one-shot/one-shot-model.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { channelRoutes } from "./channel-routes.js";
import { featureRoutes } from "./feature-routes.js";
import { inputPolishRoutes } from "./input-polish-routes.js";
import { integrationRoutes } from "./integration-routes.js";
import { scheduledTaskRoutes } from "./scheduled-task-routes.js";
import { suggestionRoutes } from "./suggestion-routes.js";
import { tokenUsageRoutes } from "./token-usage-routes.js";

/**
 * The routes the reference's own web UI calls beside the LangGraph API — feature flags, channel
 * and Lark status, follow-up suggestions, draft polishing, token usage, scheduled tasks — with
 * its request and response shapes. Mounted behind the same auth as every API route.
 */
export function referenceFrontendRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  // One client per model for the one-shot calls of this gateway.
  const oneShot = new OneShotModel(s.config);
  app.route("/", featureRoutes(s));
  app.route("/", channelRoutes());
  app.route("/", integrationRoutes());
  app.route("/", suggestionRoutes(s, oneShot));
  app.route("/", inputPolishRoutes(s, oneShot));
  app.route("/", tokenUsageRoutes(s));
  app.route("/", scheduledTaskRoutes(s));
  return app;
}
