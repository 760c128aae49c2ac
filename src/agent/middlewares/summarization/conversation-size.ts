import type { BaseMessage } from "@langchain/core/messages";
import { contentText, isAIMessage, isToolMessage } from "../conversation.js";

/** A provider-neutral token estimate (4 characters a token): cheap, deterministic, and close. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function messageTokens(message: BaseMessage): number {
  const calls = isAIMessage(message) ? JSON.stringify(message.tool_calls ?? []) : "";
  return estimateTokens(contentText(message.content) + (calls === "[]" ? "" : calls)) + 4;
}

/** How a message reads in the transcript given to the summarizer. */
export function transcriptLine(message: BaseMessage): string {
  const text = contentText(message.content);
  if (isToolMessage(message)) return `Tool result (${message.name ?? "tool"}): ${text}`;
  if (isAIMessage(message)) {
    const calls = (message.tool_calls ?? [])
      .map((call) => `${call.name}(${JSON.stringify(call.args)})`)
      .join(", ");
    return `Assistant: ${text}${calls ? `\n[called: ${calls}]` : ""}`;
  }
  return `${message.getType() === "human" ? "User" : "System"}: ${text}`;
}
