import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { isPlainObject } from "../../../core/config/env-expansion.js";

/** Copies fields the client drops (reasoning, signatures) from a message onto its request entry. */
export type AssistantRestorer = (entry: Record<string, unknown>, message: AIMessage) => void;

/**
 * Restores provider fields onto the assistant entries of a request body. The client converts
 * messages one to one (an audio reply adds an entry), so entries and messages are paired in order;
 * when the counts differ, assistant entries are paired with AI messages in order instead.
 */
export function restoreAssistantEntries(
  entries: readonly unknown[],
  originals: readonly BaseMessage[],
  restore: AssistantRestorer,
): void {
  if (entries.length === originals.length) {
    entries.forEach((entry, index) => {
      const message = originals[index];
      if (isAssistantEntry(entry) && message && AIMessage.isInstance(message))
        restore(entry, message);
    });
    return;
  }
  const assistants = entries.filter(isAssistantEntry);
  const aiMessages = originals.filter((message) => AIMessage.isInstance(message));
  assistants.forEach((entry, index) => {
    const message = aiMessages[index];
    if (message) restore(entry, message);
  });
}

function isAssistantEntry(entry: unknown): entry is Record<string, unknown> {
  return isPlainObject(entry) && entry.role === "assistant";
}

/** Puts `additional_kwargs[field]` back on the entry (DeepSeek-style `reasoning_content` replay). */
export function restoreKwarg(field: string, as = field): AssistantRestorer {
  return (entry, message) => {
    const value = message.additional_kwargs[field];
    if (value !== undefined && value !== null) entry[as] = value;
  };
}

/**
 * Gemini behind an OpenAI-compatible gateway requires each tool call's `thought_signature` back
 * verbatim; the client keeps the raw calls in `additional_kwargs.tool_calls` but sends only the
 * standard fields. Matched by call id, else by position.
 */
export const restoreThoughtSignatures: AssistantRestorer = (entry, message) => {
  const raw = message.additional_kwargs.tool_calls;
  const sent = entry.tool_calls;
  if (!Array.isArray(raw) || !Array.isArray(sent) || raw.length === 0) return;
  sent.forEach((call: unknown, index) => {
    if (!isPlainObject(call)) return;
    const original = raw.find((item) => item.id === call.id) ?? raw[index];
    if (!original) return;
    const source: Record<string, unknown> = { ...original };
    const signature = source.thought_signature ?? source.thoughtSignature;
    if (typeof signature === "string" && signature !== "") call.thought_signature = signature;
    if (isPlainObject(source.extra_content)) call.extra_content = source.extra_content;
  });
};
