/** HTTP statuses worth retrying: timeouts, conflicts, rate limits, server errors. */
const TRANSIENT_STATUSES = new Set([408, 409, 425, 429]);
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
]);
const TRANSIENT_NAMES = new Set([
  "APIConnectionError",
  "APIConnectionTimeoutError",
  "RateLimitError",
  "InternalServerError",
  "TimeoutError",
]);
const TRANSIENT_TEXT =
  /rate.?limit|overloaded|temporar(il)?y|try again|timed? ?out|socket hang up|connection (reset|refused|error)|service unavailable|bad gateway/i;

/**
 * Is a provider error worth another attempt? Rate limits, timeouts, connection drops and 5xx
 * are; bad requests, auth failures and unknown models are not (retrying cannot fix them).
 */
export function isTransientModelError(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return TRANSIENT_STATUSES.has(status) || status >= 500;
  if (hasTransientCode(error)) return true;
  if (error instanceof Error && TRANSIENT_NAMES.has(error.name)) return true;
  return error instanceof Error && TRANSIENT_TEXT.test(error.message);
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  for (const key of ["status", "statusCode"] as const) {
    const value: unknown = key in error ? Reflect.get(error, key) : undefined;
    if (typeof value === "number" && value >= 100 && value < 600) return value;
  }
  const response: unknown = "response" in error ? error.response : undefined;
  return response === error ? undefined : statusOf(response);
}

function hasTransientCode(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 3) return false;
  const code: unknown = "code" in error ? error.code : undefined;
  if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
  return "cause" in error && hasTransientCode(error.cause, depth + 1);
}
