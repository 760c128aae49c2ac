import type { Hono } from "hono";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import type { AuthProvider } from "./auth-provider.js";
import type { Principal } from "./principal.js";
import { referenceAuthDisabledRoutes } from "./reference-auth/reference-auth-disabled-routes.js";

/** Auth off: every request acts for the single embedded default user. */
export class DisabledAuthProvider implements AuthProvider {
  readonly mode = "disabled" as const;
  private readonly principal: Principal = { userId: DEFAULT_USER_ID, via: "disabled" };

  async authenticate(): Promise<Principal> {
    return this.principal;
  }

  mountRoutes(api: Hono<GatewayEnv>): void {
    api.route("/v1/auth", referenceAuthDisabledRoutes());
  }
}
