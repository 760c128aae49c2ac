import type { BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { CALLER_HEADER } from "../mock-openai/server.js";
import { contentText } from "./conversation.js";
import type { MiddlewareRuntime } from "./types.js";

/** Tag LangGraph's message streaming skips: side calls must not leak into the user's stream. */
const NO_STREAM_TAG = "nostream";

/**
 * A middleware's own model call (title, summary). It is tagged `middleware:<kind>` so the journal
 * attributes its usage and the scripted model answers it without consuming a turn, and tagged
 * `nostream` so its tokens never reach the user's stream. The caller header does the same for
 * the mock OpenAI server; real providers ignore it.
 */
export async function invokeMiddlewareModel(
  runtime: MiddlewareRuntime,
  caller: `middleware:${string}`,
  messages: BaseMessage[],
  modelName?: string | null,
): Promise<string> {
  const model = await runtime.model(modelName);
  // The node's config makes the call a child of the step (callbacks, signal); its name is its own.
  const { runName: _nodeName, ...inherited } = runtime.config;
  const options: BaseChatModelCallOptions & { options?: { headers: Record<string, string> } } = {
    ...inherited,
    tags: [...(inherited.tags ?? []), caller, NO_STREAM_TAG],
    metadata: { ...inherited.metadata, caller },
    options: { headers: { [CALLER_HEADER]: caller } },
  };
  const reply = await model.invoke(messages, options);
  return stripThinking(contentText(reply.content)).trim();
}

/** Reasoning models may think out loud before answering; only the answer counts. */
function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, "").replace(/<think>[\s\S]*$/i, "");
}
