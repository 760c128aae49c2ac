import { randomUUID } from "node:crypto";
import { AIMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { sleep } from "../../../core/async/deadline.js";
import { isCancelledError } from "../../../core/errors.js";
import type { AgentMiddleware } from "../types.js";
import { isTransientModelError } from "./transient-errors.js";

/** The flag on an assistant message that stands in for a failed model call. */
export const ERROR_FALLBACK_KEY = "deerflow_error_fallback";

export interface ModelRetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Delay before the first retry; doubles each time (default 1000 ms). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Injectable for tests; must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const MAX_DETAIL_CHARS = 300;

/**
 * Retries transient model failures (rate limits, timeouts, 5xx) with exponential backoff; when
 * the call still fails, or fails permanently, the turn ends with a visible assistant message
 * flagged `additional_kwargs.deerflow_error_fallback` instead of a crashed
 * run. Cancellation is never retried or hidden.
 */
export function createModelRetryMiddleware(options: ModelRetryOptions = {}): AgentMiddleware {
  const maxRetries = options.maxRetries ?? 3;
  const initialDelay = options.initialDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const wait = options.sleep ?? sleep;
  return {
    name: "LLMErrorHandlingMiddleware",
    tag: "model_retry",
    async wrapModelCall(request, next, runtime) {
      const signal = runtime.config.signal;
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await next(request);
        } catch (error) {
          if (signal?.aborted || isGraphBubbleUp(error) || isCancelledError(error)) throw error;
          const transient = isTransientModelError(error);
          if (transient && attempt < maxRetries) {
            const delayMs = Math.min(initialDelay * 2 ** attempt, maxDelay);
            runtime.record("wrapModelCall", "retry", {
              attempt: attempt + 1,
              delay_ms: delayMs,
              error: describe(error),
            });
            await wait(delayMs, signal);
            continue;
          }
          runtime.record("wrapModelCall", "error_fallback", {
            attempts: attempt + 1,
            transient,
            error: describe(error),
          });
          return errorFallbackMessage(error, attempt + 1);
        }
      }
    },
  };
}

export function errorFallbackMessage(error: unknown, attempts: number): AIMessage {
  const detail = describe(error);
  const tried = attempts > 1 ? ` after ${attempts} attempts` : "";
  return new AIMessage({
    id: `error-fallback-${randomUUID()}`,
    content: `I could not get an answer from the model${tried} (${detail}). Please try again in a moment, or choose another model.`,
    additional_kwargs: {
      [ERROR_FALLBACK_KEY]: true,
      error_type: error instanceof Error ? error.name : typeof error,
      attempts,
    },
    response_metadata: { finish_reason: "error" },
  });
}

/** Error text for the user and the journal: short, and without anything that looks like a key. */
function describe(error: unknown): string {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  const redacted = message.replace(/\b(sk|pk|rk|key)-[A-Za-z0-9_*-]{6,}/g, "[redacted]");
  const clipped =
    redacted.length > MAX_DETAIL_CHARS ? `${redacted.slice(0, MAX_DETAIL_CHARS)}…` : redacted;
  return `${name}: ${clipped}`;
}
