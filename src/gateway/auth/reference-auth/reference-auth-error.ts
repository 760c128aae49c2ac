import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, FawnError, type FawnErrorCode } from "../../../core/errors.js";
import type { Logger } from "../../../core/logger.js";
import { errorResponse } from "../../http/error-response.js";

/**
 * The auth error codes the reference's web frontend branches on (its `parseAuthError` reads a
 * top-level `{code, message}`; e.g. `system_already_initialized` sends the setup page to login).
 */
export type ReferenceAuthCode =
  | "invalid_credentials"
  | "not_authenticated"
  | "email_already_exists"
  | "system_already_initialized"
  | "registration_disabled";

/** The Fawn code (and so the HTTP status) behind each reference auth code. */
const FAWN_CODE: Record<ReferenceAuthCode, FawnErrorCode> = {
  invalid_credentials: "unauthorized",
  not_authenticated: "unauthorized",
  email_already_exists: "conflict",
  system_already_initialized: "conflict",
  registration_disabled: "forbidden",
};

/** An auth failure of a `/api/v1/auth/*` route, named by the reference's code. */
export class ReferenceAuthError extends FawnError {
  constructor(
    readonly authCode: ReferenceAuthCode,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(FAWN_CODE[authCode], message, options);
  }
}

/**
 * The `/api/v1/auth/*` error answer: the sentence in `detail` (a string, as everywhere in Fawn),
 * the reference's auth code as `code`, and the sentence again as `message`, the pair the
 * reference frontend reads. Other errors answer as on every Fawn route.
 */
export function referenceAuthErrorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof ReferenceAuthError) {
    return c.json(
      { ...errorBody(error.authCode, error.message), message: error.message },
      error.status as ContentfulStatusCode,
    );
  }
  return errorResponse(error, c, logger);
}
