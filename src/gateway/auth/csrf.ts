import { constantTimeEqual } from "../../auth/secrets.js";
import { csrfTokenFor } from "../../auth/sessions.js";
import { FawnError } from "../../core/errors.js";
import { CSRF_COOKIE, CSRF_HEADER } from "./auth-cookies.js";

/** Methods that change state; a cookie-authenticated one needs the CSRF pair. */
const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isMutating(method: string): boolean {
  return MUTATING_METHODS.has(method.toUpperCase());
}

/**
 * Double submit: the `csrf_token` cookie and the `X-CSRF-Token` header must be equal (another
 * site can make the browser send the cookie, but cannot read it to set the header), and must be
 * this session's token (a cookie planted from a sibling domain is not).
 */
export async function assertCsrfPair(
  request: Request,
  cookies: Record<string, string>,
  sessionToken: string,
): Promise<void> {
  const header = request.headers.get(CSRF_HEADER);
  const cookie = cookies[CSRF_COOKIE];
  if (!header || !cookie) {
    throw new FawnError(
      "forbidden",
      "CSRF token missing: send the csrf_token cookie's value in the X-CSRF-Token header.",
    );
  }
  const expected = await csrfTokenFor(sessionToken);
  // Both comparisons always run, so timing says nothing about which one failed.
  const pairMatches = constantTimeEqual(header, cookie);
  const sessionMatches = constantTimeEqual(header, expected);
  if (!(pairMatches && sessionMatches)) throw new FawnError("forbidden", "CSRF token mismatch.");
}
