import { Hono } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { handleRunCreation } from "./run-creation-handler.js";

/**
 * `/runs…` without a thread in the path: the thread is `config.configurable.thread_id` or a new
 * one, created for the caller and kept afterwards (the reference keeps them too) — unless the run
 * asks `on_completion: "delete"`: a thread the call created is then deleted once the run settles.
 */
export function statelessRunRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.post("/runs", (c) => handleRunCreation(c, s, "create", null));
  app.post("/runs/stream", (c) => handleRunCreation(c, s, "stream", null));
  app.post("/runs/wait", (c) => handleRunCreation(c, s, "wait", null));
  return app;
}
