import type { Hono } from "hono";
import type { AuthServices } from "../../auth/auth-services.js";
import { LoginRateLimiter } from "../../auth/login-rate-limiter.js";
import type { Clock } from "../../core/clock.js";
import type { AuthConfig } from "../../core/config/schema.js";
import { FawnError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { LoginAttemptStore } from "../../ports/login-attempt-store.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { readCookies, sessionTokenFrom } from "./auth-cookies.js";
import type { AuthProvider } from "./auth-provider.js";
import { authRoutes } from "./auth-routes.js";
import { assertCsrfPair, isMutating } from "./csrf.js";
import type { Principal } from "./principal.js";
import { referenceAuthRoutes } from "./reference-auth/reference-auth-routes.js";

export interface LocalAuthOptions {
  services: AuthServices;
  config: AuthConfig;
  logger: Logger;
  /** Where failed logins are counted. */
  loginAttempts: LoginAttemptStore;
  clock?: Clock;
}

function unauthorized(message: string): FawnError {
  return new FawnError("unauthorized", message);
}

/**
 * The API token a program sent: `Authorization: Bearer fawn_…`, or `x-api-key` (what the LangGraph
 * SDK sends for `apiKey`). Null when neither header is present.
 */
function presentedApiToken(request: Request): string | null {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization);
    if (match === null) throw unauthorized("Unsupported Authorization header; use Bearer fawn_….");
    return match[1] ?? "";
  }
  return request.headers.get("x-api-key");
}

/**
 * `auth.mode: local`: users in the Fawn database, login sessions in an HttpOnly cookie with a CSRF
 * double submit on state-changing requests, and personal API tokens for programs. A token is
 * not a browser credential (no site can make a browser send it), so token requests skip CSRF.
 */
export class LocalAuthProvider implements AuthProvider {
  readonly mode = "local" as const;
  readonly loginLimiter: LoginRateLimiter;

  constructor(readonly options: LocalAuthOptions) {
    this.loginLimiter = new LoginRateLimiter({
      maxFailures: options.config.login_max_failures,
      maxFailuresPerAccount: options.config.login_max_failures_per_account,
      maxFailuresPerAddress: options.config.login_max_failures_per_address,
      windowMs: options.config.login_lockout_seconds * 1000,
      store: options.loginAttempts,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  async authenticate(request: Request): Promise<Principal> {
    const apiToken = presentedApiToken(request);
    if (apiToken !== null) {
      const userId = await this.options.services.tokens.resolve(apiToken);
      if (userId === null) throw unauthorized("Invalid or revoked API token.");
      return { userId, via: "token" };
    }
    const cookies = readCookies(request);
    const sessionToken = sessionTokenFrom(cookies);
    if (!sessionToken) {
      throw unauthorized(
        "Not authenticated: log in (POST /api/auth/login) or send an API token (Authorization: Bearer fawn_…).",
      );
    }
    const user = await this.options.services.sessions.resolve(sessionToken);
    if (user === null) throw unauthorized("Session expired or ended; log in again.");
    if (isMutating(request.method)) await assertCsrfPair(request, cookies, sessionToken);
    return { userId: user.id, via: "session" };
  }

  mountRoutes(api: Hono<GatewayEnv>): void {
    api.route("/auth", authRoutes(this));
    api.route("/v1/auth", referenceAuthRoutes(this));
  }
}
