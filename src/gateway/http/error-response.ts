import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { describeError, errorBody, isFawnError } from "../../core/errors.js";
import type { LogThrottle } from "../../core/log-throttle.js";
import type { Logger } from "../../core/logger.js";

/**
 * The one place an exception becomes an HTTP answer: a FawnError keeps its status and code, a
 * Hono HTTPException (body limit, …) keeps its status, anything else is a logged 500 whose body
 * says nothing about internals.
 */
export function errorResponse(
  error: unknown,
  c: Context,
  logger: Logger,
  throttle?: LogThrottle,
): Response {
  if (isFawnError(error) && error.status >= 400 && error.status < 500) {
    const retryAfter = error.details?.retry_after_seconds;
    if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
    return c.json(error.toBody(), error.status as ContentfulStatusCode);
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(
      errorBody(codeForStatus(error.status), error.message || "Bad request"),
      error.status,
    );
  }
  if (c.req.raw.signal.aborted) {
    // The client went away mid-request (a /wait or /join it stopped waiting for): nobody reads
    // this answer, and it is not a server fault.
    logger.debug({ path: c.req.path }, "client disconnected before the response");
    return c.json(
      errorBody("client_closed", "Client closed the request."),
      499 as ContentfulStatusCode,
    );
  }
  if (isFawnError(error) && error.code === "model_unavailable") {
    // Its sentence names the model and the fix (never a key), so the caller gets it as is.
    logger.warn({ error: describeError(error), path: c.req.path }, "model unavailable");
    return c.json(error.toBody(), 503);
  }
  if (isFawnError(error) && error.status === 503) {
    // While the database is down every request fails alike: one line per interval is enough.
    const dropped = throttle ? throttle.admit(`503:${error.code}`) : 0;
    if (dropped !== null) {
      logger.warn(
        { error: describeError(error), path: c.req.path, ...(dropped > 0 ? { dropped } : {}) },
        "store unavailable",
      );
    }
    return c.json(errorBody(error.code, "Service temporarily unavailable; retry shortly."), 503);
  }
  logger.error(
    {
      error: describeError(error),
      stack: error instanceof Error ? error.stack : undefined,
      path: c.req.path,
    },
    "request failed",
  );
  return c.json(errorBody("internal", "Internal server error"), 500);
}

function codeForStatus(status: number): string {
  switch (status) {
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 413:
      return "payload_too_large";
    default:
      return "bad_request";
  }
}
