import type { BaseMessage, MessageContent } from "@langchain/core/messages";
import type { ScriptMessage, ScriptRole } from "./script-engine.js";

/** LangChain messages as the script engine sees them. */
export function toScriptMessages(messages: readonly BaseMessage[]): ScriptMessage[] {
  return messages.map((message) => ({
    role: roleOf(message.getType()),
    text: textOf(message.content),
    name: message.name,
    id: message.id,
  }));
}

function roleOf(type: string): ScriptRole {
  if (type === "human" || type === "generic") return "human";
  if (type === "ai") return "ai";
  if (type === "tool" || type === "function") return "tool";
  return "system";
}

export function textOf(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      return part.type === "text" && typeof part.text === "string" ? part.text : "";
    })
    .join("");
}
