import type { Hono } from "hono";
import { createAuthServices } from "../../auth/auth-services.js";
import type { AuthMode, FawnConfig } from "../../core/config/schema.js";
import type { Logger } from "../../core/logger.js";
import type { LoginAttemptStore } from "../../ports/login-attempt-store.js";
import type { UserStore } from "../../ports/user-store.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { DisabledAuthProvider } from "./disabled-auth.js";
import { LocalAuthProvider } from "./local-auth-provider.js";
import type { Principal } from "./principal.js";

/**
 * The auth seam. The middleware asks the provider who the caller is; routes only ever see the
 * resulting `Principal`. The `local` provider (users, sessions, CSRF, API tokens) implements this
 * interface and mounts its own `/api/auth/*` routes; no other route knows which provider runs.
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

export interface AuthProviderDeps {
  /** The users beside the run stores. */
  users: UserStore;
  /** False for process-memory stores: accounts and tokens then vanish on restart. */
  usersPersist: boolean;
  loginAttempts: LoginAttemptStore;
  logger: Logger;
}

/** The provider `auth.mode` selects; `local` keeps its users beside the run stores. */
export function createAuthProvider(config: FawnConfig, deps: AuthProviderDeps): AuthProvider {
  switch (config.auth.mode) {
    case "disabled":
      return new DisabledAuthProvider();
    case "local": {
      if (!deps.usersPersist) {
        deps.logger.warn(
          { database: "memory:" },
          "auth.mode local over an in-memory database: accounts and tokens vanish on restart",
        );
      }
      const services = createAuthServices(deps.users, { config: config.auth });
      return new LocalAuthProvider({
        services,
        config: config.auth,
        logger: deps.logger,
        loginAttempts: deps.loginAttempts,
      });
    }
  }
}
