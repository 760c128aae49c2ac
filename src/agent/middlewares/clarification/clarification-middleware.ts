import { ToolMessage } from "@langchain/core/messages";
import { Command, END } from "@langchain/langgraph";
import type { AgentMiddleware } from "../types.js";
import { ASK_CLARIFICATION_TOOL, createAskClarificationTool } from "./ask-clarification-tool.js";
import { buildClarificationRequest } from "./clarification-request.js";

const PROCEED_WITHOUT_ASKING =
  "The user is not available to answer questions in this run. Do not ask again: proceed with your best judgment, state the assumptions you make, and finish the task.";

export interface ClarificationOptions {
  /** Non-interactive runs (reference `non_interactive`) do not get the tool at all. */
  withTool?: boolean;
}

/**
 * Handles `ask_clarification`: the tool body never runs; the call becomes a
 * ToolMessage showing the question (with a `human_input` request for clients) and a Command with
 * `goto: END`, so the turn ends and the thread waits for the user's reply as a new run. When the
 * run's context sets `disable_clarification` (or the run is non-interactive and the tool was not
 * even offered), the model is told to proceed on its own instead.
 * Last in the chain, so it is the innermost tool wrapper.
 */
export function createClarificationMiddleware(options: ClarificationOptions = {}): AgentMiddleware {
  return {
    name: "ClarificationMiddleware",
    tag: "clarification",
    tools: options.withTool === false ? [] : [createAskClarificationTool()],
    async wrapToolCall(request, next, runtime) {
      const { toolCall } = request;
      if (toolCall.name !== ASK_CLARIFICATION_TOOL) return next(request);
      const toolCallId = toolCall.id ?? "";
      // Nobody will answer a non-interactive run, even if the model asks anyway.
      if (runtime.options.disable_clarification === true || options.withTool === false) {
        runtime.record("wrapToolCall", "clarification_disabled", { tool_call_id: toolCallId });
        return new ToolMessage({
          content: PROCEED_WITHOUT_ASKING,
          tool_call_id: toolCallId,
          name: ASK_CLARIFICATION_TOOL,
        });
      }
      const { text, payload } = buildClarificationRequest(toolCall.args ?? {}, toolCallId);
      runtime.record("wrapToolCall", "asked", {
        tool_call_id: toolCallId,
        request_id: payload.request_id,
        clarification_type: payload.clarification_type,
        input_mode: payload.input_mode,
      });
      return new Command({
        update: {
          messages: [
            new ToolMessage({
              // The id is the request id, so a retried question replaces rather than repeats.
              id: payload.request_id,
              content: text,
              tool_call_id: toolCallId,
              name: ASK_CLARIFICATION_TOOL,
              artifact: { human_input: payload },
            }),
          ],
        },
        goto: END,
      });
    },
  };
}
