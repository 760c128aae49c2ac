import { isGraphBubbleUp } from "@langchain/langgraph";
import type { AgentMiddleware } from "../types.js";
import { toolFailureMessage } from "./tool-error-message.js";

/**
 * Turns a tool's exception into an error ToolMessage, so the model can adapt instead of the run
 * failing. Graph control flow (interrupts, parent commands) and cancellation still propagate.
 * Sits inside the output budget and clarification wrappers' view: they see a message, never a throw.
 */
export function createToolErrorMiddleware(): AgentMiddleware {
  return {
    name: "ToolErrorHandlingMiddleware",
    tag: "tool_error",
    async wrapToolCall(request, next, runtime) {
      try {
        return await next(request);
      } catch (error) {
        if (isGraphBubbleUp(error) || runtime.config.signal?.aborted) throw error;
        const message = toolFailureMessage(request.toolCall, error);
        // The task tool's result contract reports a failed sub-agent this way.
        if (request.toolCall.name === "task") {
          message.additional_kwargs = { ...message.additional_kwargs, subagent_status: "failed" };
        }
        runtime.record("wrapToolCall", "tool_error_to_message", {
          tool: request.toolCall.name,
          tool_call_id: request.toolCall.id ?? null,
          error_type: error instanceof Error ? error.name : typeof error,
        });
        return message;
      }
    },
  };
}
