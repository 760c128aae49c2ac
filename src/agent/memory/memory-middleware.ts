import type { BaseMessage } from "@langchain/core/messages";
import type { MemoryConfig } from "../../core/config/schema.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { contentText, isAIMessage, isUserMessage } from "../middlewares/conversation.js";
import { ERROR_FALLBACK_KEY } from "../middlewares/model-retry/model-retry-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { ORIGINAL_USER_CONTENT_KEY } from "../middlewares/uploads/uploads-middleware.js";
import type { MemoryStore } from "./memory-store.js";
import type { ConversationTurn } from "./memory-update-prompt.js";
import type { MemoryUpdateQueue } from "./memory-update-queue.js";
import { updateMemoryFromConversation } from "./memory-updater.js";

export interface MemoryMiddlewareOptions {
  store: MemoryStore;
  queue: MemoryUpdateQueue;
  config: Pick<
    MemoryConfig,
    | "debounce_seconds"
    | "max_facts"
    | "fact_token_budget"
    | "fact_half_life_days"
    | "fact_confidence_threshold"
    | "model_name"
  >;
  logger?: Logger;
}

/**
 * After each run, queues the thread's conversation for a memory update (the reference's
 * MemoryMiddleware). Only what the user typed and the assistant's final replies go in: no
 * tool traffic, no middleware reminders, no uploads listing. The update itself runs later, once
 * the thread has been quiet for `debounce_seconds`, with the run's model (or `memory.model_name`).
 */
export function createMemoryMiddleware(options: MemoryMiddlewareOptions): AgentMiddleware {
  const logger = (options.logger ?? rootLogger).child({ component: "memory" });
  const { config } = options;
  return {
    name: "MemoryMiddleware",
    tag: "memory",

    async afterAgent(state, runtime) {
      const threadId = runtime.threadId;
      if (!threadId) return undefined;
      // The model just failed for good: an update call would fail too (and hold up shutdown).
      if (isErrorFallback(state.messages.at(-1))) {
        runtime.record("afterAgent", "memory_update_skipped", { reason: "model_failed" });
        return undefined;
      }
      const turns = conversationTurns(state.messages);
      if (!turns.some((turn) => turn.role === "user")) return undefined;
      if (!turns.some((turn) => turn.role === "assistant")) return undefined;
      const model = await runtime.model(config.model_name ?? null);
      const userId = runtime.userId;
      // A forget after this moment (in any process) makes the update stand down.
      const queuedAt = new Date();
      options.queue.enqueue({
        userId,
        threadId,
        delayMs: config.debounce_seconds * 1000,
        run: async (stillWanted) => {
          await updateMemoryFromConversation({
            store: options.store,
            model,
            userId,
            threadId,
            turns,
            rules: {
              maxFacts: config.max_facts,
              factTokenBudget: config.fact_token_budget ?? null,
              factHalfLifeDays: config.fact_half_life_days,
              factConfidenceThreshold: config.fact_confidence_threshold,
            },
            stillWanted,
            queuedAt,
            logger,
          });
        },
      });
      runtime.record("afterAgent", "memory_update_queued", { turns: turns.length });
      return undefined;
    },
  };
}

/** The user's own words and the assistant's final answers, in order. */
export function conversationTurns(messages: readonly BaseMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const message of messages) {
    if (isUserMessage(message)) {
      const original: unknown = message.additional_kwargs?.[ORIGINAL_USER_CONTENT_KEY];
      const text = (typeof original === "string" ? original : contentText(message.content)).trim();
      if (text) turns.push({ role: "user", text });
    } else if (
      isAIMessage(message) &&
      (message.tool_calls?.length ?? 0) === 0 &&
      !isErrorFallback(message)
    ) {
      const text = contentText(message.content).trim();
      if (text) turns.push({ role: "assistant", text });
    }
  }
  return turns;
}

/** The visible error answer the retry middleware leaves when the model failed for good. */
function isErrorFallback(message: BaseMessage | undefined): boolean {
  return isAIMessage(message) && message.additional_kwargs?.[ERROR_FALLBACK_KEY] !== undefined;
}
