import { AIMessage, type BaseMessage } from "@langchain/core/messages";

/**
 * What sets one OpenAI-compatible provider apart from plain OpenAI: the reference ships a patched
 * client class per provider (DeepSeek, MiMo, StepFun, MiniMax, vLLM, MindIE, Gemini gateways);
 * here each is data plus small hooks, applied by one client subclass (`dialect-completions.ts`).
 */
export interface ModelDialect {
  readonly name: string;
  /** Rewrites the entry's provider settings before the client is built (renamed or local keys). */
  adjustSettings?(settings: Record<string, unknown>): Record<string, unknown>;
  /** The conversation as this provider must receive it (MindIE cannot take tool messages). */
  prepareMessages?(messages: BaseMessage[]): BaseMessage[];
  /**
   * Last changes to the request body, given the messages it was built from (in the same order as
   * the body's messages): replaying reasoning, dropping fields the provider rejects, flags.
   */
  rewriteRequest?(body: Record<string, unknown>, originals: readonly BaseMessage[]): void;
  /** Reasoning text in the provider's own field of a response message or a stream delta. */
  reasoningOf?(raw: Record<string, unknown>): ReasoningFields | undefined;
  /** A whole (non-streamed) answer after conversion: inline `<think>`, tool calls written as text. */
  finishMessage?(message: AIMessage): AIMessage;
  /** The provider drops streamed choices when tools are bound: ask for the whole answer instead. */
  readonly wholeAnswersWithTools?: boolean;
}

/** What `reasoningOf` found: the text, plus provider fields to keep for the replay. */
export interface ReasoningFields {
  reasoning_content?: string;
  extra?: Record<string, unknown>;
}

/** The plain OpenAI dialect: nothing to change. */
export const OPENAI_DIALECT: ModelDialect = { name: "openai" };

/** A copy of an answer with its content, kwargs or tool calls replaced (id and metadata kept). */
export function replaceAIFields(
  message: AIMessage,
  fields: Partial<Pick<AIMessage, "content" | "additional_kwargs" | "tool_calls">>,
): AIMessage {
  return new AIMessage({
    id: message.id,
    name: message.name,
    content: fields.content ?? message.content,
    additional_kwargs: fields.additional_kwargs ?? message.additional_kwargs,
    tool_calls: fields.tool_calls ?? message.tool_calls ?? [],
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    response_metadata: message.response_metadata,
    ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
  });
}
