import type { Context } from "hono";
import { FawnError } from "../../core/errors.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/** The last hop a trusted proxy appended; the rest of the header is client-controlled. */
function lastForwarded(value: string | null): string | null {
  const last = value?.split(",").at(-1)?.trim();
  return last ? last : null;
}

/** Whether the client reached us over https (directly, or per a trusted proxy). */
export function isHttps(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return trustProxy && lastForwarded(request.headers.get("x-forwarded-proto")) === "https";
}

/** The client address a rate limit is keyed on. */
export function clientIp(c: Context<GatewayEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = lastForwarded(c.req.header("x-forwarded-for") ?? null);
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket.remoteAddress ?? "unknown";
}

/**
 * Login, register and logout carry no CSRF token (there is no session yet to bind one to), so a
 * browser's word on where the request came from is checked instead: a cross-site `Sec-Fetch-Site`
 * or an `Origin` naming another host is refused. Clients that send neither (curl, SDKs) pass.
 */
export function assertSameOriginAuthRequest(request: Request, trustProxy: boolean): void {
  const denied = () =>
    new FawnError(
      "forbidden",
      "Cross-site auth request denied. If a proxy serves this page from another host, set auth.trust_proxy: true so its X-Forwarded-Host counts.",
    );
  if (request.headers.get("sec-fetch-site") === "cross-site") throw denied();
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host =
    (trustProxy ? lastForwarded(request.headers.get("x-forwarded-host")) : null) ??
    request.headers.get("host") ??
    new URL(request.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw denied();
  }
  if (originHost === "" || originHost.toLowerCase() !== host.toLowerCase()) throw denied();
}
