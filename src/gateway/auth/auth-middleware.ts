import type { MiddlewareHandler } from "hono";
import type { GatewayEnv } from "../http/gateway-env.js";
import type { AuthProvider } from "./auth-provider.js";

/** Resolves the caller once per request and stores it as `principal` for the routes. */
export function authMiddleware(provider: AuthProvider): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    c.set("principal", await provider.authenticate(c.req.raw));
    await next();
  };
}
