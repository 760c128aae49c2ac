import type { Context } from "hono";
import { Hono } from "hono";
import { RegistrationClosedError } from "../../../auth/accounts.js";
import { acceptPassword } from "../../../auth/credentials-policy.js";
import { ConflictError, isFawnError, ValidationError } from "../../../core/errors.js";
import type { UserRecord } from "../../../ports/user-store.js";
import type { GatewayEnv } from "../../http/gateway-env.js";
import { parseWith, readJsonBody } from "../../http/validation.js";
import {
  ACCESS_TOKEN_COOKIE,
  clearSessionCookies,
  readCookies,
  sessionTokenFrom,
  setSessionCookies,
} from "../auth-cookies.js";
import type { LocalAuthProvider } from "../local-auth-provider.js";
import { attemptPasswordLogin, wantsSecureCookies } from "../login-flow.js";
import type { Principal } from "../principal.js";
import { assertSameOriginAuthRequest, clientIp } from "../request-origin.js";
import { changePasswordBody, newAccountBody, readLoginForm } from "./reference-auth-bodies.js";
import { ReferenceAuthError, referenceAuthErrorResponse } from "./reference-auth-error.js";
import { referenceUser } from "./reference-user.js";

/**
 * The reference's `/api/v1/auth/*` over Fawn's local accounts, so its web frontend signs in
 * unmodified: the same accounts, sessions, CSRF rules and failed-login limits as `/api/auth/*`;
 * the session travels in the reference's `access_token` cookie.
 */
export function referenceAuthRoutes(provider: LocalAuthProvider): Hono<GatewayEnv> {
  const { services, config, logger } = provider.options;
  const log = logger.child({ component: "auth" });
  const app = new Hono<GatewayEnv>();
  app.onError((error, c) => referenceAuthErrorResponse(error, c, logger));
  const ttlSeconds = config.session_ttl_days * 24 * 60 * 60;

  const startSession = async (
    c: Context<GatewayEnv>,
    user: UserRecord,
    rememberMe: boolean,
  ): Promise<void> => {
    const session = await services.sessions.start(user);
    setSessionCookies(c, session, {
      secure: wantsSecureCookies(config, c.req.raw),
      name: ACCESS_TOKEN_COOKIE,
      persistent: rememberMe,
    });
  };

  /** The caller, with "not signed in" in the reference's words. */
  const caller = async (c: Context<GatewayEnv>): Promise<Principal> => {
    try {
      return await provider.authenticate(c.req.raw);
    } catch (error) {
      if (isFawnError(error) && error.code === "unauthorized") {
        throw new ReferenceAuthError("not_authenticated", error.message, { cause: error });
      }
      throw error;
    }
  };

  app.get("/setup-status", async (c) => {
    const users = await services.store.countUsers();
    return c.json({ needs_setup: users === 0, registration_enabled: config.allow_registration });
  });

  // Fawn has no single sign-on providers.
  app.get("/providers", (c) => c.json({ providers: [] }));

  app.post("/login/local", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const form = await readLoginForm(c);
    const user = await attemptPasswordLogin(provider, c, form.username, form.password);
    if (user === null) {
      throw new ReferenceAuthError("invalid_credentials", "Incorrect email or password.");
    }
    await startSession(c, user, form.remember_me);
    return c.json({ expires_in: ttlSeconds, needs_setup: false });
  });

  app.post("/register", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const body = parseWith(newAccountBody, await readJsonBody(c), "body");
    const user = await services.accounts
      .register(body.email, body.password, config.allow_registration)
      .catch(namedAccountError);
    log.info({ user_id: user.id }, "user registered");
    await startSession(c, user, body.remember_me);
    return c.json(referenceUser(user, config.admins), 201);
  });

  app.post("/initialize", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const body = parseWith(newAccountBody, await readJsonBody(c), "body");
    const user = await services.accounts.createFirstAccount(body.email, body.password);
    if (user === null) {
      throw new ReferenceAuthError(
        "system_already_initialized",
        "This server already has accounts; sign in instead.",
      );
    }
    log.info({ user_id: user.id }, "first account created");
    if (referenceUser(user, config.admins).system_role === "user") {
      log.warn(
        { user_id: user.id },
        "the first account is not listed in auth.admins; add its email there to make it an administrator",
      );
    }
    await startSession(c, user, body.remember_me);
    return c.json(referenceUser(user, config.admins), 201);
  });

  app.get("/me", async (c) => {
    const principal = await caller(c);
    const user = await services.accounts.getUser(principal.userId);
    if (user === null) {
      throw new ReferenceAuthError("not_authenticated", "This account no longer exists.");
    }
    return c.json(referenceUser(user, config.admins));
  });

  app.post("/logout", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const sessionToken = sessionTokenFrom(readCookies(c.req.raw));
    if (sessionToken) await services.sessions.end(sessionToken);
    clearSessionCookies(c, wantsSecureCookies(config, c.req.raw));
    return c.json({ message: "Successfully logged out" });
  });

  app.post("/change-password", async (c) => {
    const principal = await caller(c);
    const body = parseWith(changePasswordBody, await readJsonBody(c), "body");
    const current = await services.accounts.getUser(principal.userId);
    if (current === null) {
      throw new ReferenceAuthError("not_authenticated", "This account no longer exists.");
    }
    if (body.new_email && body.new_email.trim().toLowerCase() !== current.email) {
      throw new ValidationError(
        "Changing the email is not supported; send the password change without new_email.",
      );
    }
    acceptPassword(body.new_password);
    // A guess at the current password counts like a failed login, so a borrowed session cannot
    // be used to guess it faster than the login form allows.
    const attempt = await provider.loginLimiter.begin(
      clientIp(c, config.trust_proxy),
      current.email,
    );
    const updated = await services.accounts.changePassword(
      principal.userId,
      body.current_password,
      body.new_password,
    );
    if (updated !== null) await attempt.succeeded();
    if (updated === null) {
      // 400, not 401: the session is fine, and a 401 would send the frontend to its login page.
      throw new ReferenceAuthError("invalid_credentials", "Current password is incorrect.", {
        status: 400,
      });
    }
    log.info({ user_id: updated.id }, "password changed");
    // Every session of the user ended with the change; a browser gets a fresh one.
    if (principal.via === "session") await startSession(c, updated, body.remember_me ?? true);
    return c.json({ message: "Password changed successfully" });
  });

  return app;
}

/** The account service's refusals, named as the reference names them. */
function namedAccountError(error: unknown): never {
  if (error instanceof RegistrationClosedError) {
    throw new ReferenceAuthError("registration_disabled", error.message, { cause: error });
  }
  if (error instanceof ConflictError) {
    throw new ReferenceAuthError("email_already_exists", error.message, { cause: error });
  }
  throw error;
}
