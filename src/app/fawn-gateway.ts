import type { Hono } from "hono";
import { createGatewayApp, createGatewayServices, type GatewayOptions } from "../gateway/app.js";
import type { GatewayDeps } from "../gateway/gateway-deps.js";
import type { GatewayEnv } from "../gateway/http/gateway-env.js";
import type { Fawn } from "./create-fawn.js";

/** The parts of a Fawn runtime the gateway works over (not the sandbox, recovery or `close`). */
export function gatewayDepsOf(fawn: Fawn): GatewayDeps {
  const { clock } = fawn.crons;
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
    metrics: fawn.metrics,
    draining: () => fawn.manager.draining,
    ...(fawn.crons.enabled
      ? { crons: { store: fawn.crons.store, ...(clock ? { clock } : {}) } }
      : {}),
  };
}

/**
 * The HTTP API (and web workspace) over a Fawn runtime: what `fawn serve` serves. The runtime's
 * cron scheduler fires through this gateway's run admission (the first gateway built over it).
 */
export function createFawnGateway(
  fawn: Fawn,
  options: Omit<GatewayOptions, "deps"> = {},
): Hono<GatewayEnv> {
  const deps = gatewayDepsOf(fawn);
  const services = options.services ?? createGatewayServices(deps, options);
  if (services.crons) fawn.crons.attach(services.runs);
  return createGatewayApp({ ...options, deps, services });
}
