import { type ProviderRequest, providerEndpoint } from "./provider-http.js";
import type { ProviderOptions } from "./provider-options.js";

/** A self-hosted Browserless's usual address (the reference's default). */
export const BROWSERLESS_BASE_URL = "http://localhost:3032";
export const BROWSERLESS_TOKEN_VARIABLE = "BROWSERLESS_TOKEN";

export interface BrowserlessSettings {
  baseUrl: string;
  /** Needed by Browserless Cloud; a self-hosted one may run without. */
  token: string | undefined;
  timeoutMs: number;
  options: ProviderOptions;
}

/** Browserless's wait options (`waitForEvent`, `waitForTimeout`, `waitForSelector`) from the entry. */
export function browserlessWaits(options: ProviderOptions): Record<string, unknown> {
  return {
    ...(options.wait_for_event ? { waitForEvent: { event: options.wait_for_event } } : {}),
    ...(options.wait_for_timeout_ms ? { waitForTimeout: options.wait_for_timeout_ms } : {}),
    ...(options.wait_for_selector
      ? {
          waitForSelector: {
            selector: options.wait_for_selector,
            timeout: options.wait_for_selector_timeout_ms ?? 5_000,
          },
        }
      : {}),
    ...(options.best_attempt ? { bestAttempt: true } : {}),
  };
}

/** A POST to one Browserless REST endpoint; the token travels as the `token` query parameter. */
export function browserlessRequest(
  settings: BrowserlessSettings,
  path: "/content" | "/screenshot",
  body: Record<string, unknown>,
  accept: string,
): ProviderRequest {
  const url = new URL(providerEndpoint(settings.baseUrl, path));
  if (settings.token) url.searchParams.set("token", settings.token);
  return {
    provider: "Browserless",
    url: url.href,
    method: "POST",
    headers: { accept, "cache-control": "no-cache" },
    body,
    timeoutMs: settings.timeoutMs,
    secrets: settings.token ? [settings.token] : [],
    hintForStatus: (status) =>
      status === 401 || status === 403
        ? `check the Browserless token (token: $${BROWSERLESS_TOKEN_VARIABLE})`
        : undefined,
  };
}

/** The status the rendered site itself answered (Browserless's own status is 200 regardless). */
export function targetStatusNote(headers: Headers): string | undefined {
  const code = Number(headers.get("x-response-code") ?? "");
  if (!Number.isInteger(code) || code < 400) return undefined;
  const text = headers.get("x-response-status") ?? "";
  return `(The site answered HTTP ${code}${text ? ` ${text}` : ""}; the content may be an error page.)`;
}
