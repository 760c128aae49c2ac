import type { Hono } from "hono";
import type { AuthMode } from "../../core/config/schema.js";
import { ConfigError } from "../../core/errors.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { DisabledAuthProvider } from "./disabled-auth.js";
import type { Principal } from "./principal.js";

/**
 * The auth seam. The middleware asks the provider who the caller is; routes only ever see the
 * resulting `Principal`. A `local` provider (users, sessions, CSRF, API tokens) implements this
 * interface and mounts its own `/api/v1/auth/*` routes; no route changes.
 */
export interface AuthProvider {
  readonly mode: AuthMode;
  /**
   * Resolve the caller of a non-public request, or throw a FawnError (401 unauthenticated,
   * 403 e.g. a cookie request without its CSRF pair).
   */
  authenticate(request: Request): Promise<Principal>;
  /** Routes the provider owns (login, logout, me, …), mounted under `/api`. */
  mountRoutes?(api: Hono<GatewayEnv>): void;
}

export function createAuthProvider(mode: AuthMode): AuthProvider {
  switch (mode) {
    case "disabled":
      return new DisabledAuthProvider();
    case "local":
      // Failing closed: starting "local" without its user store would silently serve everyone.
      throw new ConfigError(
        'auth.mode "local" is not available in this build yet; use FAWN_AUTH=disabled (loopback only) for now.',
      );
  }
}
