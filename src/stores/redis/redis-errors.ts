import { isFawnError } from "../../core/errors.js";

/**
 * ioredis rejects with `ReplyError` when the server refused a command (wrong type, bad id, script
 * error). Retrying those cannot help; anything else (socket closed, reconnect gave up, timeout) is
 * the connection's trouble and may pass. Matched by name: ioredis exports the class untyped.
 */
export function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ReplyError";
}

/** Worth another try: not a refusal by the server and not one of our own (data) errors. */
export function isTransientRedisError(error: unknown): boolean {
  return !isReplyError(error) && !isFawnError(error);
}
