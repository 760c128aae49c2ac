import type { MessageContent } from "@langchain/core/messages";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

/**
 * Names of human messages that middlewares write (summaries, reminders, warnings). They are not
 * the user speaking: a new one neither starts a new exchange nor becomes a title. The scripted
 * model uses the same names (src/agent/scripted/script-engine.ts) so its turn count agrees.
 */
export const HIDDEN_MESSAGE_NAMES = {
  summary: "summary",
  loopWarning: "loop_warning",
  todoReminder: "todo_reminder",
  pluginContext: "plugin_context",
  budgetWarning: "budget_warning",
} as const;

const HIDDEN_NAMES = new Set<string>([
  ...Object.values(HIDDEN_MESSAGE_NAMES),
  "durable_context",
  "date_reminder",
]);
const HIDDEN_ID_PREFIXES = ["view-image-context:"];

/** A human message that a person wrote (not a middleware's reminder or summary). */
export function isUserMessage(message: BaseMessage): message is HumanMessage {
  if (!HumanMessage.isInstance(message)) return false;
  if (message.name !== undefined && HIDDEN_NAMES.has(message.name)) return false;
  return !HIDDEN_ID_PREFIXES.some((prefix) => message.id?.startsWith(prefix) ?? false);
}

/** Index of the latest user message, or -1. */
export function latestUserIndex(messages: readonly BaseMessage[]): number {
  return messages.findLastIndex((message) => isUserMessage(message));
}

/** Messages after the latest user message: the current exchange's model and tool traffic. */
export function currentExchange(messages: readonly BaseMessage[]): readonly BaseMessage[] {
  return messages.slice(latestUserIndex(messages) + 1);
}

export function isAIMessage(message: BaseMessage | undefined): message is AIMessage {
  return message !== undefined && AIMessage.isInstance(message);
}

export function isToolMessage(message: BaseMessage | undefined): message is ToolMessage {
  return message !== undefined && ToolMessage.isInstance(message);
}

/** The text of a message's content; non-text parts (images) are skipped. */
export function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      return part.type === "text" && typeof part.text === "string" ? part.text : "";
    })
    .join("");
}

/**
 * A copy of an AI message with some fields replaced; the id stays, so the reducer replaces it.
 * New `tool_calls` also drop provider-raw ones from `additional_kwargs`, which some clients would
 * otherwise send instead.
 */
export function withAIFields(
  message: AIMessage,
  fields: Partial<
    Pick<AIMessage, "content" | "tool_calls" | "invalid_tool_calls" | "additional_kwargs">
  >,
): AIMessage {
  const kwargs = fields.additional_kwargs ?? message.additional_kwargs;
  const { tool_calls: _raw, ...withoutRaw } = kwargs;
  return new AIMessage({
    content: fields.content ?? message.content,
    id: message.id,
    name: message.name,
    tool_calls: fields.tool_calls ?? message.tool_calls ?? [],
    invalid_tool_calls: fields.invalid_tool_calls ?? message.invalid_tool_calls ?? [],
    additional_kwargs: fields.tool_calls ? withoutRaw : kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
  });
}

/** Appends text to a message's content, whether it is a string or a list of parts. */
export function appendText(content: MessageContent, text: string): MessageContent {
  if (typeof content === "string") return content === "" ? text : `${content}\n\n${text}`;
  return [...content, { type: "text", text }];
}
