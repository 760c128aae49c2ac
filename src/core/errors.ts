/**
 * The one error hierarchy of Fawn. Every error a caller can see carries a stable `code`, an HTTP
 * status and a message that says what was wrong and what to do about it.
 */

export type FawnErrorCode =
  | "bad_request"
  | "validation_failed"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "thread_busy"
  | "unsupported_strategy"
  | "idempotency_mismatch"
  | "config_invalid"
  | "store_unavailable"
  | "server_draining"
  | "store_conflict"
  | "ownership_lost"
  | "run_startup_failed"
  | "cancelled"
  | "deadline_exceeded"
  | "path_escape"
  | "payload_too_large"
  | "too_many_requests"
  | "model_unavailable"
  | "internal";

const STATUS_BY_CODE: Record<FawnErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  thread_busy: 409,
  unsupported_strategy: 422,
  idempotency_mismatch: 409,
  config_invalid: 500,
  store_unavailable: 503,
  server_draining: 503,
  store_conflict: 409,
  ownership_lost: 409,
  run_startup_failed: 500,
  cancelled: 499,
  deadline_exceeded: 504,
  path_escape: 400,
  payload_too_large: 413,
  too_many_requests: 429,
  model_unavailable: 503,
  internal: 500,
};

const FAWN_ERROR_MARK = Symbol.for("fawn.error");

/**
 * An error answer: the human sentence in `detail` (a string, the convention of the LangGraph
 * Platform and the reference), the stable code beside it, and any structured details after.
 */
export type ErrorBody = { detail: string; code: string } & Record<string, unknown>;

export function errorBody(
  code: string,
  message: string,
  details?: Record<string, unknown>,
): ErrorBody {
  return { ...details, detail: message, code };
}

export interface FawnErrorOptions {
  cause?: unknown;
  status?: number;
  details?: Record<string, unknown>;
}

export class FawnError extends Error {
  readonly code: FawnErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly [FAWN_ERROR_MARK] = true;

  constructor(code: FawnErrorCode, message: string, options: FawnErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status ?? STATUS_BY_CODE[code];
    this.details = options.details;
  }

  /** Works across duplicated package copies, unlike `instanceof`. */
  static isInstance(value: unknown): value is FawnError {
    return typeof value === "object" && value !== null && FAWN_ERROR_MARK in value;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

export const isFawnError = FawnError.isInstance;

export class BadRequestError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("bad_request", message, options);
  }
}

export class ValidationError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("validation_failed", message, options);
  }
}

export class NotFoundError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("not_found", message, options);
  }
}

/** A thread already has an active operation, or a guarded write lost its race. */
export class ConflictError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("conflict", message, options);
  }
}

/**
 * A fenced write refused by the store: the run is owned by another worker now (a peer took it
 * over), or its row is gone. The writer must stop writing for the run; retrying cannot succeed.
 */
export class OwnershipLostError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("ownership_lost", message, options);
  }
}

export function isOwnershipLostError(error: unknown): error is OwnershipLostError {
  return isFawnError(error) && error.code === "ownership_lost";
}

export class UnsupportedStrategyError extends FawnError {
  constructor(strategy: string) {
    super(
      "unsupported_strategy",
      `Unsupported multitask_strategy "${strategy}"; use one of reject, interrupt, rollback, enqueue.`,
    );
  }
}

export class IdempotencyMismatchError extends FawnError {
  constructor(key: string) {
    super(
      "idempotency_mismatch",
      `Idempotency key "${key}" already belongs to a run on a different thread or user; use a new key.`,
    );
  }
}

export class ConfigError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("config_invalid", message, options);
  }
}

export class StoreError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("store_unavailable", message, options);
  }
}

export class RunStartupError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("run_startup_failed", message, options);
  }
}

export class PathEscapeError extends FawnError {
  constructor(path: string) {
    super("path_escape", `Path "${path}" escapes its allowed root; use a path inside it.`);
  }
}

/** A request over a size or count limit; the message names the limit. */
export class PayloadTooLargeError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("payload_too_large", message, options);
  }
}

/** Refused for now; the answer carries `Retry-After` (`detail.retry_after_seconds`). */
export class TooManyRequestsError extends FawnError {
  constructor(message: string, retryAfterSeconds: number) {
    super("too_many_requests", message, { details: { retry_after_seconds: retryAfterSeconds } });
  }
}

/**
 * A model the request needs cannot answer now: not buildable from its entry (no key, unknown
 * provider), unreachable, refusing, or too slow. The message names the model and the fix.
 */
export class ModelUnavailableError extends FawnError {
  constructor(message: string, options?: FawnErrorOptions) {
    super("model_unavailable", message, options);
  }
}

export class DeadlineExceededError extends FawnError {
  constructor(message = "The operation did not finish before its deadline.") {
    super("deadline_exceeded", message);
  }
}

/**
 * Cooperative cancellation, the TypeScript counterpart of asyncio's CancelledError: the message is
 * the reason given to `cancel(reason)`; a finalizer failure may be attached as `cause`.
 */
export class CancelledError extends FawnError {
  constructor(reason = "cancelled", options?: FawnErrorOptions) {
    super("cancelled", reason, options);
  }

  static isCancelled(value: unknown): value is CancelledError {
    return isFawnError(value) && value.code === "cancelled";
  }
}

export const isCancelledError = CancelledError.isCancelled;

const AGENT_RUN_CODES: Record<number, FawnErrorCode> = {
  400: "bad_request",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  422: "validation_failed",
  503: "store_unavailable",
  504: "deadline_exceeded",
};

/**
 * What a plugin's run handle (`AgentRuns`) throws: the HTTP status the same request would get and
 * a message that says what was wrong. One class, so a plugin branches on `status` alone.
 */
export class AgentRunError extends FawnError {
  constructor(status: number, message: string, options?: FawnErrorOptions) {
    super(AGENT_RUN_CODES[status] ?? "internal", message, { ...options, status });
  }

  /** Re-throws any Fawn error as an AgentRunError of the same status and message. */
  static from(error: unknown): AgentRunError | null {
    if (error instanceof AgentRunError) return error;
    if (isFawnError(error)) return new AgentRunError(error.status, error.message, { cause: error });
    return null;
  }
}

/** Renders any thrown value as a short message without internals. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
