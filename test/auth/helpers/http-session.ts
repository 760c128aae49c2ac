/** Plain-fetch helpers for a `local`-auth gateway: register/login and replay the cookies. */

export interface BrowserSession {
  /** The `Cookie` header a browser would send back. */
  cookie: string;
  /** The `csrf_token` cookie's value, for the `X-CSRF-Token` header. */
  csrf: string;
}

/** The cookies a response set, as `name → value` (empty value for cleared cookies). */
export function setCookies(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair?.indexOf("=") ?? -1;
    if (pair && at > 0) cookies.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)));
  }
  return cookies;
}

export function sessionFrom(response: Response): BrowserSession {
  const cookies = setCookies(response);
  const session = cookies.get("fawn_session");
  const csrf = cookies.get("csrf_token");
  if (!session || !csrf) throw new Error(`no session cookies in the ${response.status} answer`);
  return { cookie: `fawn_session=${session}; csrf_token=${csrf}`, csrf };
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Registers (first user, or with registration open) and returns the browser session. */
export async function registerUser(
  apiUrl: string,
  email: string,
  password: string,
): Promise<BrowserSession> {
  const response = await postJson(`${apiUrl}/auth/register`, { email, password });
  if (response.status !== 201)
    throw new Error(`register ${email}: ${response.status} ${await response.text()}`);
  return sessionFrom(response);
}

export async function createApiToken(
  apiUrl: string,
  session: BrowserSession,
  name = "test",
): Promise<string> {
  const response = await postJson(
    `${apiUrl}/auth/tokens`,
    { name },
    { cookie: session.cookie, "x-csrf-token": session.csrf },
  );
  if (response.status !== 201)
    throw new Error(`create token: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** Headers of a cookie-authenticated browser request, with or without the CSRF header. */
export function cookieHeaders(session: BrowserSession, withCsrf = true): Record<string, string> {
  return { cookie: session.cookie, ...(withCsrf ? { "x-csrf-token": session.csrf } : {}) };
}
