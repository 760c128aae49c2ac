import type { Context } from "hono";
import type { AuthConfig } from "../../core/config/schema.js";
import { isFawnError } from "../../core/errors.js";
import type { UserRecord } from "../../ports/user-store.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import type { LocalAuthProvider } from "./local-auth-provider.js";
import { clientIp, isHttps } from "./request-origin.js";

/** Whether cookies set on this answer carry `Secure` (`auth.secure_cookies`). */
export function wantsSecureCookies(
  config: Pick<AuthConfig, "secure_cookies" | "trust_proxy">,
  request: Request,
): boolean {
  return (
    config.secure_cookies === "always" ||
    (config.secure_cookies === "auto" && isHttps(request, config.trust_proxy))
  );
}

/**
 * An email + password login under the failed-login limits, shared by `/api/auth/login` and the
 * reference's `/api/v1/auth/login/local`: the user when the password is right, null when not;
 * a 429 while a limit is reached.
 */
export async function attemptPasswordLogin(
  provider: LocalAuthProvider,
  c: Context<GatewayEnv>,
  email: string,
  password: string,
): Promise<UserRecord | null> {
  const { services, config, logger } = provider.options;
  const log = logger.child({ component: "auth" });
  const ip = clientIp(c, config.trust_proxy);
  // Counted as a failure before the password is checked, so concurrent guesses cannot all
  // slip past the limit; a right password un-counts itself afterwards.
  const attempt = await provider.loginLimiter.begin(ip, email).catch((error: unknown) => {
    if (isFawnError(error) && error.code === "too_many_requests") {
      log.warn({ ip }, "login refused: too many failed attempts");
    }
    throw error;
  });
  const user = await services.accounts.verifyLogin(email, password);
  if (user === null) {
    log.info({ ip }, "login failed");
    return null;
  }
  await attempt.succeeded();
  return user;
}
