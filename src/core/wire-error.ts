import {
  AgentRunError,
  BadRequestError,
  CancelledError,
  ConfigError,
  ConflictError,
  DeadlineExceededError,
  FawnError,
  type FawnErrorCode,
  type FawnErrorOptions,
  isFawnError,
  ModelUnavailableError,
  NotFoundError,
  OwnershipLostError,
  PayloadTooLargeError,
  RunStartupError,
  StoreError,
  TooManyRequestsError,
  ValidationError,
} from "./errors.js";

/**
 * An error as it crosses a thread boundary (a `MessagePort`): structured clone keeps neither the
 * class nor the `code` of a thrown error, so it travels as plain fields and is revived on the
 * other side. `code` is null for anything that is not a `FawnError`.
 */
export interface WireError {
  code: FawnErrorCode | null;
  name: string;
  message: string;
  /** A `FawnError`'s HTTP status, when it is not its code's default (`AgentRunError`, options). */
  status?: number;
  /** A `FawnError`'s structured details, as JSON. */
  details?: Record<string, unknown>;
}

export function errorToWire(error: unknown): WireError {
  if (isFawnError(error)) {
    const details = jsonDetails(error.details);
    return {
      code: error.code,
      name: error.name,
      message: error.message,
      status: error.status,
      ...(details === undefined ? {} : { details }),
    };
  }
  if (error instanceof Error) {
    return { code: null, name: error.name, message: error.message };
  }
  return { code: null, name: "Error", message: String(error) };
}

type Revive = (message: string, options: FawnErrorOptions) => FawnError;

/** The classes of `errors.ts` whose constructor takes the message as it is, by code. */
const REVIVERS: Partial<Record<FawnErrorCode, Revive>> = {
  bad_request: (message, options) => new BadRequestError(message, options),
  validation_failed: (message, options) => new ValidationError(message, options),
  not_found: (message, options) => new NotFoundError(message, options),
  conflict: (message, options) => new ConflictError(message, options),
  ownership_lost: (message, options) => new OwnershipLostError(message, options),
  config_invalid: (message, options) => new ConfigError(message, options),
  store_unavailable: (message, options) => new StoreError(message, options),
  run_startup_failed: (message, options) => new RunStartupError(message, options),
  cancelled: (message, options) => new CancelledError(message, options),
  deadline_exceeded: (message) => new DeadlineExceededError(message),
  payload_too_large: (message, options) => new PayloadTooLargeError(message, options),
  model_unavailable: (message, options) => new ModelUnavailableError(message, options),
  too_many_requests: (message, options) =>
    new TooManyRequestsError(message, retryAfterOf(options.details)),
};

/**
 * The error `errorToWire` described: a `FawnError` of the class its code names in `errors.ts`
 * (so `isOwnershipLostError`, `isCancelledError` and `instanceof` hold), a plain `FawnError`
 * with the same code, status and name for a class defined elsewhere, and an `Error` with the
 * same name and message for anything else.
 */
export function errorFromWire(wire: WireError): Error {
  if (wire.code === null) {
    const error = new Error(wire.message);
    error.name = wire.name;
    return error;
  }
  const options: FawnErrorOptions = {
    ...(wire.status === undefined ? {} : { status: wire.status }),
    ...(wire.details === undefined ? {} : { details: wire.details }),
  };
  if (wire.name === AgentRunError.name && wire.status !== undefined) {
    return new AgentRunError(wire.status, wire.message, options);
  }
  const revive = REVIVERS[wire.code];
  const error = revive
    ? revive(wire.message, options)
    : new FawnError(wire.code, wire.message, options);
  // A subclass defined outside core (a sandbox or auth error) keeps its name at least.
  error.name = wire.name;
  return error;
}

function retryAfterOf(details: Record<string, unknown> | undefined): number {
  const seconds = details?.retry_after_seconds;
  return typeof seconds === "number" ? seconds : 1;
}

/** Details as JSON (what an answer body would carry); undefined when there are none or they do not serialize. */
function jsonDetails(
  details: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (details === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(JSON.stringify(details));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
