import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { parse } from "hono/utils/cookie";
import type { IssuedSession } from "../../auth/sessions.js";

export const SESSION_COOKIE = "fawn_session";
/**
 * The reference's name for the session cookie: the `/api/v1/auth/*` routes set it, its web
 * frontend reads it (server-side) and forwards it; Fawn accepts it like `fawn_session`.
 */
export const ACCESS_TOKEN_COOKIE = "access_token";
export type SessionCookieName = typeof SESSION_COOKIE | typeof ACCESS_TOKEN_COOKIE;
/** Readable by the page's script, which echoes it in the `X-CSRF-Token` header. */
export const CSRF_COOKIE = "csrf_token";
export const CSRF_HEADER = "x-csrf-token";

export function readCookies(request: Request): Record<string, string> {
  const header = request.headers.get("cookie");
  return header ? parse(header) : {};
}

/** The session token a browser sent, under either cookie name. */
export function sessionTokenFrom(cookies: Record<string, string>): string | undefined {
  return cookies[SESSION_COOKIE] || cookies[ACCESS_TOKEN_COOKIE] || undefined;
}

export interface SessionCookieOptions {
  secure: boolean;
  /** Default `fawn_session`. */
  name?: SessionCookieName;
  /** False: cookies without an expiry, which the browser drops when it closes ("remember me" off). */
  persistent?: boolean;
}

/**
 * The session cookie is HttpOnly (script cannot steal it) and SameSite=Lax (other sites' forms
 * and fetches do not carry it); Path=/ so `/api` and `/api/langgraph` both receive it. The other
 * session cookie name is cleared, so a browser holds one session and its CSRF cookie matches it.
 */
export function setSessionCookies(
  c: Context,
  session: IssuedSession,
  options: SessionCookieOptions,
): void {
  const { secure, name = SESSION_COOKIE, persistent = true } = options;
  const expires = new Date(session.expiresAt);
  const maxAge = Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000));
  const lifetime = persistent ? { expires, maxAge } : {};
  const common = { path: "/", secure, sameSite: "Lax", ...lifetime } as const;
  setCookie(c, name, session.token, { ...common, httpOnly: true });
  setCookie(c, CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
  const other = name === SESSION_COOKIE ? ACCESS_TOKEN_COOKIE : SESSION_COOKIE;
  if (readCookies(c.req.raw)[other] !== undefined) deleteCookie(c, other, { path: "/", secure });
}

export function clearSessionCookies(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure });
  deleteCookie(c, ACCESS_TOKEN_COOKIE, { path: "/", secure });
  deleteCookie(c, CSRF_COOKIE, { path: "/", secure });
}
