import { ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { AgentMiddleware, ToolCallResult } from "../types.js";
import { neutralizeUntrustedText } from "./untrusted-text.js";

/**
 * The same neutralization for remote content the agent fetched: a page could carry a forged
 * `<system-reminder>` or an END USER INPUT marker. Only the named remote-content tools are
 * touched, so code and logs from local tools are never altered. It sits inside the output budget,
 * which then trims already-neutralized text.
 */
export function createToolResultSanitizationMiddleware(options: {
  tools: readonly string[];
}): AgentMiddleware {
  const remote = new Set(options.tools);
  return {
    name: "ToolResultSanitizationMiddleware",
    tag: "tool_result_sanitize",
    async wrapToolCall(request, next, runtime) {
      const result = await next(request);
      if (!remote.has(request.toolCall.name)) return result;
      const sanitized = sanitizeResult(result);
      if (sanitized !== result) {
        runtime.record("wrapToolCall", "tool_result_sanitized", { tool: request.toolCall.name });
      }
      return sanitized;
    },
  };
}

function sanitizeResult(result: ToolCallResult): ToolCallResult {
  if (ToolMessage.isInstance(result)) return sanitizeMessage(result);
  const update: unknown = result.update;
  if (typeof update !== "object" || update === null || !("messages" in update)) return result;
  const messages: unknown = update.messages;
  if (!Array.isArray(messages)) return result;
  const rewritten = messages.map((m: unknown) =>
    ToolMessage.isInstance(m) ? sanitizeMessage(m) : m,
  );
  if (rewritten.every((m, i) => m === messages[i])) return result;
  // A copy: the tool's own Command object is never mutated.
  return new Command({
    update: { ...update, messages: rewritten },
    ...(result.goto !== undefined ? { goto: result.goto } : {}),
  });
}

function sanitizeMessage(message: ToolMessage): ToolMessage {
  const content = message.content;
  let next: ToolMessage["content"];
  if (typeof content === "string") {
    next = neutralizeUntrustedText(content);
    if (next === content) return message;
  } else {
    let changed = false;
    next = content.map((part) => {
      if (part.type !== "text" || typeof part.text !== "string") return part;
      const text = neutralizeUntrustedText(part.text);
      if (text === part.text) return part;
      changed = true;
      return { ...part, text };
    });
    if (!changed) return message;
  }
  return new ToolMessage({
    content: next,
    tool_call_id: message.tool_call_id,
    name: message.name,
    id: message.id,
    status: message.status,
    artifact: message.artifact,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });
}
