import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { type Command, isCommand, isGraphBubbleUp } from "@langchain/langgraph";
import type { ThreadState, ThreadStateUpdate } from "./thread-state.js";

const MAX_ERROR_DETAIL_CHARS = 500;

export type ToolStepResult = ThreadStateUpdate | Array<Command | ThreadStateUpdate>;

/**
 * The graph's tools step: runs every unanswered tool call of the last AI message (in parallel,
 * like LangGraph's ToolNode) and returns their ToolMessages, or the Commands tools return (e.g.
 * `present_files` updating `artifacts`). A failing or unknown tool becomes an error ToolMessage,
 * never a failed run; only cancellation and graph control flow propagate.
 */
export function createToolStep(tools: readonly StructuredToolInterface[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return async (state: ThreadState, config: RunnableConfig): Promise<ToolStepResult> => {
    const calls = pendingToolCalls(state.messages);
    const outputs = await Promise.all(calls.map((call) => runToolCall(call, byName, config)));
    if (!outputs.some((output) => isCommand(output))) {
      return { messages: outputs.filter((output) => output instanceof ToolMessage) };
    }
    return outputs.map((output) => (isCommand(output) ? output : { messages: [output] }));
  };
}

/** Tool calls of the last AI message that have no ToolMessage yet. */
export function pendingToolCalls(messages: readonly BaseMessage[]): ToolCall[] {
  const index = messages.findLastIndex((message) => AIMessage.isInstance(message));
  const last = messages[index];
  if (!last || !AIMessage.isInstance(last)) return [];
  const answered = new Set(
    messages
      .slice(index + 1)
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => message.tool_call_id),
  );
  return (last.tool_calls ?? []).filter((call) => !call.id || !answered.has(call.id));
}

async function runToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, StructuredToolInterface>,
  config: RunnableConfig,
): Promise<ToolMessage | Command> {
  const id = call.id ?? "";
  const tool = tools.get(call.name);
  if (!tool) {
    const known = [...tools.keys()].join(", ") || "none";
    return errorMessage(call, `Error: ${call.name} is not a valid tool, try one of [${known}].`);
  }
  try {
    const output: unknown = await tool.invoke({ ...call, id, type: "tool_call" }, config);
    if (isCommand(output) || output instanceof ToolMessage) return output;
    return new ToolMessage({
      content: typeof output === "string" ? output : JSON.stringify(output),
      tool_call_id: id,
      name: call.name,
    });
  } catch (error) {
    if (isGraphBubbleUp(error) || config.signal?.aborted) throw error;
    const type = error instanceof Error ? error.name : typeof error;
    const detail = error instanceof Error ? error.message : String(error);
    return errorMessage(
      call,
      `Error: Tool '${call.name}' failed with ${type}: ${clip(detail)}. Continue with available context, or choose an alternative tool.`,
    );
  }
}

function errorMessage(call: ToolCall, content: string): ToolMessage {
  return new ToolMessage({
    content,
    tool_call_id: call.id ?? "",
    name: call.name,
    status: "error",
  });
}

function clip(text: string): string {
  return text.length <= MAX_ERROR_DETAIL_CHARS ? text : `${text.slice(0, MAX_ERROR_DETAIL_CHARS)}…`;
}
