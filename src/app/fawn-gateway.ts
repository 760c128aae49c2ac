import type { Hono } from "hono";
import { createGatewayApp, type GatewayOptions } from "../gateway/app.js";
import type { GatewayDeps } from "../gateway/gateway-deps.js";
import type { GatewayEnv } from "../gateway/http/gateway-env.js";
import type { Fawn } from "./create-fawn.js";

/** The parts of a Fawn runtime the gateway works over (not the sandbox, recovery or `close`). */
export function gatewayDepsOf(fawn: Fawn): GatewayDeps {
  return {
    config: fawn.config,
    stores: fawn.stores,
    bridge: fawn.bridge,
    checkpointer: fawn.checkpointer,
    graphStore: fawn.graphStore,
    manager: fawn.manager,
    runService: fawn.runs,
    loginAttempts: fawn.loginAttempts,
    logger: fawn.logger,
    extensions: fawn.extensions,
    agentRuns: fawn.agentRuns,
  };
}

/** The HTTP API (and web workspace) over a Fawn runtime: what `fawn serve` serves. */
export function createFawnGateway(
  fawn: Fawn,
  options: Omit<GatewayOptions, "deps"> = {},
): Hono<GatewayEnv> {
  return createGatewayApp({ ...options, deps: gatewayDepsOf(fawn) });
}
