import type {
  BaseChatModel,
  BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import type { Logger } from "../../core/logger.js";
import { contentText } from "../middlewares/conversation.js";
import { CALLER_HEADER } from "../mock-openai/server.js";
import {
  type AppliedMemoryUpdate,
  applyMemoryUpdate,
  type MemoryWriteRules,
} from "./apply-memory-update.js";
import type { MemoryStore } from "./memory-store.js";
import { type ConversationTurn, memoryUpdateMessages } from "./memory-update-prompt.js";
import { parseMemoryUpdate } from "./parse-memory-update.js";

/** The caller tag of memory model calls: the journal and the scripted model know it. */
export const MEMORY_CALLER = "middleware:memory";

export interface MemoryUpdateRequest {
  store: MemoryStore;
  model: BaseChatModel;
  userId: string;
  threadId: string;
  turns: readonly ConversationTurn[];
  rules: MemoryWriteRules;
  /** False once the user's memory was forgotten after this update was queued. */
  stillWanted?: () => boolean;
  /** When the conversation was queued: a forget after it (any process) cancels the update. */
  queuedAt?: Date;
  logger: Logger;
  now?: () => Date;
}

/**
 * One memory update: a model call sees the current memory and the conversation and answers a
 * JSON change; the change is merged into the memory as it is *then* (compare-and-set), so
 * updates from two threads of one user both land. A bad answer changes nothing.
 */
export async function updateMemoryFromConversation(
  request: MemoryUpdateRequest,
): Promise<AppliedMemoryUpdate | null> {
  const now = request.now ?? (() => new Date());
  const before = await request.store.read(request.userId);
  const options: BaseChatModelCallOptions & { options?: { headers: Record<string, string> } } = {
    tags: [MEMORY_CALLER, "nostream"],
    metadata: { caller: MEMORY_CALLER },
    options: { headers: { [CALLER_HEADER]: MEMORY_CALLER } },
  };
  const reply = await request.model.invoke(
    memoryUpdateMessages(before, request.turns, now()),
    options,
  );
  const answer = stripThinking(contentText(reply.content));
  const update = parseMemoryUpdate(answer);
  const where = { userId: request.userId, threadId: request.threadId };
  if (update === null) {
    request.logger.warn(where, "memory model answer is not a memory update; memory unchanged");
    return null;
  }
  // Filled inside the store's change, where the update is merged into the latest memory.
  const result: { applied: AppliedMemoryUpdate | null } = { applied: null };
  await request.store.update(request.userId, (latest, { forgottenAt }) => {
    result.applied = null;
    if (request.stillWanted && !request.stillWanted()) return null;
    if (forgottenAt && request.queuedAt && forgottenAt >= request.queuedAt.toISOString()) {
      return null;
    }
    result.applied = applyMemoryUpdate(latest, update, request.rules, {
      threadId: request.threadId,
      now: now(),
    });
    return result.applied?.memory ?? null;
  });
  const outcome = result.applied;
  request.logger.info(
    outcome
      ? {
          ...where,
          summaries: outcome.summaries,
          added: outcome.added,
          removed: outcome.removed,
          rejected: outcome.rejected,
        }
      : where,
    outcome ? "memory updated" : "memory update had nothing to store",
  );
  return outcome;
}

function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
}
