/**
 * Same-origin calls to Fawn's API. Cookies ride along; mutating requests echo the readable
 * `csrf_token` cookie in `X-CSRF-Token` (the gateway's double-submit check under local auth).
 * Error bodies are `{"detail": "<sentence>", "code": "<code>"}`; `ApiError` carries both.
 */

import { ApiError } from "./api-error.js";

export { ApiError };

export const API_BASE = "/api";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split(";")) {
    const [key, ...value] = pair.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/** Headers plus the CSRF header when the method changes state and a token cookie exists. */
export function withCsrf(method: string | undefined, headers: HeadersInit | undefined): Headers {
  const result = new Headers(headers);
  const token = readCookie("csrf_token");
  if (token && MUTATING.has((method ?? "GET").toUpperCase())) result.set("X-CSRF-Token", token);
  return result;
}

export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${API_BASE}${path}`, {
    ...init,
    credentials: "same-origin",
    headers: withCsrf(init.method, init.headers),
  });
  if (!response.ok) throw await toApiError(response);
  return response;
}

export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await apiFetch(path, init);
  return (await response.json()) as T;
}

export async function toApiError(response: Response): Promise<ApiError> {
  let code = "http_error";
  let message = `${response.status} ${response.statusText}`;
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null) {
      const record = body as Record<string, unknown>;
      if (typeof record.detail === "string") message = record.detail;
      if (typeof record.code === "string") code = record.code;
    }
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(response.status, code, message);
}

/** `/api/threads/{id}/artifacts/mnt/user-data/outputs/x.md` for a virtual path. */
export function artifactUrl(threadId: string, virtualPath: string, download = false): string {
  const encoded = virtualPath
    .split("/")
    .filter((segment) => segment !== "")
    .map(encodeURIComponent)
    .join("/");
  return `${API_BASE}/threads/${encodeURIComponent(threadId)}/artifacts/${encoded}${download ? "?download=true" : ""}`;
}
