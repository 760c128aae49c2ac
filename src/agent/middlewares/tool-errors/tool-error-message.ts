import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";

const MAX_ERROR_DETAIL_CHARS = 500;

/** A ToolMessage the model reads as a failed step (`status: "error"`). */
export function errorToolMessage(call: ToolCall, content: string): ToolMessage {
  return new ToolMessage({
    content,
    tool_call_id: call.id ?? "",
    name: call.name,
    status: "error",
  });
}

/** The reference wording for a tool that threw (its ToolErrorHandlingMiddleware). */
export function toolFailureMessage(call: ToolCall, error: unknown): ToolMessage {
  const type = error instanceof Error ? error.name : typeof error;
  const detail = error instanceof Error ? error.message : String(error);
  return errorToolMessage(
    call,
    `Error: Tool '${call.name}' failed with ${type}: ${clip(detail)}. Continue with available context, or choose an alternative tool.`,
  );
}

function clip(text: string): string {
  return text.length <= MAX_ERROR_DETAIL_CHARS ? text : `${text.slice(0, MAX_ERROR_DETAIL_CHARS)}…`;
}
