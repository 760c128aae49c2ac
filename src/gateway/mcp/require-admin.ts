import type { Context } from "hono";
import type { AuthConfig } from "../../core/config/schema.js";
import { FawnError } from "../../core/errors.js";
import type { AuthProvider } from "../auth/auth-provider.js";
import { LocalAuthProvider } from "../auth/local-auth-provider.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/**
 * Admin-only routes: with auth off every caller is the local operator (the port is loopback by
 * default); with `auth.mode: local` the caller's email or user id must be listed in
 * `auth.admins`, else 403. Fawn users have no role column, so the list lives in config.yaml.
 */
export async function requireAdmin(
  c: Context<GatewayEnv>,
  auth: AuthProvider,
  config: Pick<AuthConfig, "admins">,
): Promise<void> {
  const principal = c.get("principal");
  if (principal.via === "disabled") return;
  const admins = new Set(config.admins.map((entry) => entry.trim().toLowerCase()));
  if (admins.has(principal.userId.toLowerCase())) return;
  if (admins.size > 0 && auth instanceof LocalAuthProvider) {
    const user = await auth.options.services.store.getUserById(principal.userId);
    if (user && admins.has(user.email.toLowerCase())) return;
  }
  throw new FawnError(
    "forbidden",
    "Administrator access is required; an operator lists administrators in config.yaml under auth.admins (emails or user ids).",
  );
}
