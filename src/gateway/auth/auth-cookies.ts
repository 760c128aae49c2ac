import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { parse } from "hono/utils/cookie";
import type { IssuedSession } from "../../auth/sessions.js";

export const SESSION_COOKIE = "fawn_session";
/** Readable by the page's script, which echoes it in the `X-CSRF-Token` header. */
export const CSRF_COOKIE = "csrf_token";
export const CSRF_HEADER = "x-csrf-token";

export function readCookies(request: Request): Record<string, string> {
  const header = request.headers.get("cookie");
  return header ? parse(header) : {};
}

/**
 * The session cookie is HttpOnly (script cannot steal it) and SameSite=Lax (other sites' forms
 * and fetches do not carry it); Path=/ so `/api` and `/api/langgraph` both receive it.
 */
export function setSessionCookies(c: Context, session: IssuedSession, secure: boolean): void {
  const expires = new Date(session.expiresAt);
  const maxAge = Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000));
  const common = { path: "/", secure, sameSite: "Lax", expires, maxAge } as const;
  setCookie(c, SESSION_COOKIE, session.token, { ...common, httpOnly: true });
  setCookie(c, CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
}

export function clearSessionCookies(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure });
  deleteCookie(c, CSRF_COOKIE, { path: "/", secure });
}
