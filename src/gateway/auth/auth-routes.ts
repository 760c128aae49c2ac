import { Hono } from "hono";
import { z } from "zod";
import { publicUser } from "../../auth/accounts.js";
import { MAX_PASSWORD_LENGTH } from "../../auth/credentials-policy.js";
import { FawnError } from "../../core/errors.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import {
  clearSessionCookies,
  readCookies,
  sessionTokenFrom,
  setSessionCookies,
} from "./auth-cookies.js";
import { authMiddleware } from "./auth-middleware.js";
import type { LocalAuthProvider } from "./local-auth-provider.js";
import { attemptPasswordLogin, wantsSecureCookies } from "./login-flow.js";
import { assertSameOriginAuthRequest } from "./request-origin.js";
import { tokenRoutes } from "./token-routes.js";

const credentialsBody = z.strictObject({
  email: z.string().min(1).max(320),
  // Longer than the policy allows, so an over-long password gets the policy's message.
  password: z
    .string()
    .min(1)
    .max(MAX_PASSWORD_LENGTH * 4),
});

/** `/auth/*`: register, login, logout, me, and the API token routes. */
export function authRoutes(provider: LocalAuthProvider): Hono<GatewayEnv> {
  const { services, config, logger } = provider.options;
  const log = logger.child({ component: "auth" });
  const secureCookies = (request: Request): boolean => wantsSecureCookies(config, request);
  const app = new Hono<GatewayEnv>();
  const requireCaller = authMiddleware(provider);

  app.post("/register", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const body = parseWith(credentialsBody, await readJsonBody(c), "body");
    const user = await services.accounts.register(
      body.email,
      body.password,
      config.allow_registration,
    );
    log.info({ user_id: user.id }, "user registered");
    const session = await services.sessions.start(user);
    setSessionCookies(c, session, { secure: secureCookies(c.req.raw) });
    return c.json({ user: publicUser(user), expires_at: session.expiresAt }, 201);
  });

  app.post("/login", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const body = parseWith(credentialsBody, await readJsonBody(c), "body");
    const user = await attemptPasswordLogin(provider, c, body.email, body.password);
    if (user === null) throw new FawnError("unauthorized", "Invalid email or password.");
    const session = await services.sessions.start(user);
    setSessionCookies(c, session, { secure: secureCookies(c.req.raw) });
    return c.json({ user: publicUser(user), expires_at: session.expiresAt });
  });

  app.post("/logout", async (c) => {
    assertSameOriginAuthRequest(c.req.raw, config.trust_proxy);
    const sessionToken = sessionTokenFrom(readCookies(c.req.raw));
    if (sessionToken) await services.sessions.end(sessionToken);
    clearSessionCookies(c, secureCookies(c.req.raw));
    return c.body(null, 204);
  });

  app.get("/me", requireCaller, async (c) => {
    const principal = c.get("principal");
    const user = await services.accounts.getUser(principal.userId);
    if (user === null) throw new FawnError("unauthorized", "This account no longer exists.");
    return c.json({ user: publicUser(user), via: principal.via });
  });

  app.route("/tokens", tokenRoutes(services, requireCaller, log));
  return app;
}
