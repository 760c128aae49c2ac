import { type AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { isPlainObject } from "../../../core/config/env-expansion.js";
import { isAIMessage, isToolMessage, withAIFields } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";

export const INTERRUPTED_TOOL_RESULT = "[Tool call was interrupted and did not return a result.]";

export interface RepairedHistory {
  messages: BaseMessage[];
  /** Tool call ids that got a synthetic result. */
  answered: string[];
  /** Tool call ids of ToolMessages dropped for having no matching call. */
  dropped: string[];
  /** AI messages whose tool calls had a missing name or non-object args. */
  repairedCalls: number;
}

/**
 * Providers reject a history where an assistant tool call has no result (a run cancelled
 * mid-tool, a crash) or a tool result has no call. Before each model request this inserts a
 * synthetic error result after every unanswered call, drops orphan results, and repairs empty
 * tool names and non-object args. The request is repaired, not the thread.
 */
export function createDanglingToolCallMiddleware(): AgentMiddleware {
  return {
    name: "DanglingToolCallMiddleware",
    tag: "dangling_tool_call",
    async wrapModelCall(request, next, runtime) {
      const repaired = repairToolCallHistory(request.messages);
      if (repaired.answered.length + repaired.dropped.length + repaired.repairedCalls === 0) {
        return next(request);
      }
      runtime.record("wrapModelCall", "repaired_history", {
        answered_tool_call_ids: repaired.answered,
        dropped_tool_call_ids: repaired.dropped,
        repaired_calls: repaired.repairedCalls,
      });
      return next({ ...request, messages: repaired.messages });
    },
  };
}

export function repairToolCallHistory(history: readonly BaseMessage[]): RepairedHistory {
  const messages: BaseMessage[] = [];
  const answered: string[] = [];
  const dropped: string[] = [];
  let repairedCalls = 0;
  let pending: ToolCall[] = [];

  const closePending = () => {
    for (const call of pending) {
      messages.push(
        new ToolMessage({
          content: INTERRUPTED_TOOL_RESULT,
          tool_call_id: call.id ?? "",
          name: call.name,
          status: "error",
        }),
      );
      answered.push(call.id ?? "");
    }
    pending = [];
  };

  for (const message of history) {
    if (isToolMessage(message)) {
      const index = pending.findIndex((call) => call.id === message.tool_call_id);
      if (index === -1) {
        dropped.push(message.tool_call_id);
        continue;
      }
      pending.splice(index, 1);
      messages.push(message);
      continue;
    }
    closePending();
    if (isAIMessage(message) && (message.tool_calls?.length ?? 0) > 0) {
      const fixed = fixToolCalls(message);
      if (fixed !== message) repairedCalls += 1;
      messages.push(fixed);
      pending = [...(fixed.tool_calls ?? [])];
      continue;
    }
    messages.push(message);
  }
  closePending();
  return { messages, answered, dropped, repairedCalls };
}

/** A copy with usable tool calls, or the message itself when nothing needed fixing. */
function fixToolCalls(message: AIMessage): AIMessage {
  const calls = message.tool_calls ?? [];
  const broken = calls.some((call) => !call.name || !isPlainObject(call.args));
  if (!broken) return message;
  return withAIFields(message, {
    tool_calls: calls.map((call) => ({
      ...call,
      name: call.name || "unknown_tool",
      args: isPlainObject(call.args) ? call.args : {},
    })),
  });
}
