import type { HttpBindings } from "@hono/node-server";
import type { Principal } from "../auth/principal.js";

/** Hono typing shared by every gateway route: the caller resolved by the auth middleware. */
export interface GatewayEnv {
  Variables: { principal: Principal };
  Bindings: Partial<HttpBindings>;
}
