import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { isPlainObject } from "../../core/config/env-expansion.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { EvidenceRecorder } from "../../ports/agent.js";
import type { AgentMiddleware, HookName, MiddlewareRuntime } from "./types.js";

export type { EvidenceRecorder };

/**
 * Where the run's journal travels inside the graph config. A `__` key: LangGraph keeps such keys
 * out of checkpoint metadata, and savers only read the checkpoint address from `configurable`.
 */
export const EVIDENCE_CONFIG_KEY = "__fawn_evidence";

export interface RuntimeSource {
  config: LangGraphRunnableConfig;
  /** The run's model, without tools bound. */
  model: BaseChatModel;
  /** Looks up a configured model by name (e.g. `title.model_name`). */
  resolveModel?: ((name: string) => Promise<BaseChatModel>) | undefined;
  logger?: Logger | undefined;
}

/** The runtime one middleware sees during one node execution. */
export function createMiddlewareRuntime(
  source: RuntimeSource,
  middleware: Pick<AgentMiddleware, "name" | "tag">,
): MiddlewareRuntime {
  const { config } = source;
  const logger = source.logger ?? rootLogger;
  const options = runOptionsOf(config);
  const evidence = evidenceOf(config);
  return {
    config,
    threadId: stringOf(options.thread_id),
    runId: stringOf(options.run_id),
    userId: stringOf(options.user_id) ?? DEFAULT_USER_ID,
    options,
    async model(name) {
      if (!name || !source.resolveModel) return source.model;
      try {
        return await source.resolveModel(name);
      } catch (error) {
        // A named side model that cannot be built must not fail the run: use the run's model.
        logger.warn(
          { middleware: middleware.name, model: name, error: describeError(error) },
          "middleware model unavailable; using the run's model",
        );
        return source.model;
      }
    },
    record(hook: HookName, action: string, changes?: unknown) {
      if (!evidence) return;
      try {
        evidence.recordMiddleware(middleware.tag, {
          name: middleware.name,
          hook,
          action,
          changes: changes ?? null,
        });
      } catch (error) {
        // Evidence is a record of what happened, never a reason for the run to fail.
        logger.warn(
          { middleware: middleware.name, error: describeError(error) },
          "middleware evidence not recorded",
        );
      }
    },
  };
}

/** `configurable` merged with `context`, context winning. */
export function runOptionsOf(config: LangGraphRunnableConfig): Record<string, unknown> {
  const configurable = isPlainObject(config.configurable) ? config.configurable : {};
  const context = isPlainObject(config.context) ? config.context : {};
  return { ...configurable, ...context };
}

function evidenceOf(config: LangGraphRunnableConfig): EvidenceRecorder | null {
  const candidate: unknown = config.configurable?.[EVIDENCE_CONFIG_KEY];
  return isEvidenceRecorder(candidate) ? candidate : null;
}

function isEvidenceRecorder(value: unknown): value is EvidenceRecorder {
  return (
    typeof value === "object" &&
    value !== null &&
    "recordMiddleware" in value &&
    typeof value.recordMiddleware === "function"
  );
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
