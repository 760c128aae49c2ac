import { isPlainObject } from "../../core/config/env-expansion.js";
import { DEFAULT_USER_ID, type ThreadScope } from "../../core/paths.js";

/** The parts of a runnable config (or a LangGraph run config) that carry the thread. */
export interface ScopedConfig {
  configurable?: Record<string, unknown>;
  context?: unknown;
}

/**
 * The thread (and user) a tool call acts for, from the run's config: `context` first, then
 * `configurable`, as the reference reads it. A tool call outside a thread is an error.
 */
export function threadScopeOf(config: ScopedConfig | undefined): ThreadScope {
  const context = isPlainObject(config?.context) ? config.context : {};
  const configurable = config?.configurable ?? {};
  const threadId = firstString(context.thread_id, configurable.thread_id);
  if (!threadId) throw new Error("Thread ID not available in runtime context");
  const userId = firstString(context.user_id, configurable.user_id) ?? DEFAULT_USER_ID;
  return { threadId, userId };
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === "string" && value !== "");
}
