/** Plain-fetch helpers for the reference's `/api/v1/auth/*` routes, as its web frontend calls them. */
import { type BrowserSession, setCookies } from "./http-session.js";

/** The `access_token` + `csrf_token` pair a v1 answer set, as a browser would send it back. */
export function referenceSessionFrom(response: Response): BrowserSession {
  const cookies = setCookies(response);
  const token = cookies.get("access_token");
  const csrf = cookies.get("csrf_token");
  if (!token || !csrf) throw new Error(`no access_token cookie in the ${response.status} answer`);
  return { cookie: `access_token=${token}; csrf_token=${csrf}`, csrf };
}

/** `POST /login/local` with the form the reference's login page sends. */
export function loginLocal(
  apiUrl: string,
  email: string,
  password: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${apiUrl}/v1/auth/login/local`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ username: email, password, remember_me: "true", ...extra }),
  });
}

/** `POST` a JSON body to a v1 auth route (`/register`, `/initialize`, `/change-password`). */
export function postV1(
  apiUrl: string,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${apiUrl}/v1/auth/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
