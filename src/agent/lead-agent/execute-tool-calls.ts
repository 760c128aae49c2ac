import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  Command,
  END,
  isCommand,
  isGraphBubbleUp,
  type LangGraphRunnableConfig,
} from "@langchain/langgraph";
import { composeToolHandler } from "../middlewares/chain.js";
import type { RuntimeSource } from "../middlewares/runtime.js";
import {
  errorToolMessage,
  toolFailureMessage,
} from "../middlewares/tool-errors/tool-error-message.js";
import type { ToolCallResult, ToolHandler } from "../middlewares/types.js";
import type { StepContext } from "./step-context.js";
import type { ThreadState, ThreadStateUpdate } from "./thread-state.js";

export type ToolStepResult = Array<Command | ThreadStateUpdate>;

/**
 * The graph's tools step: runs every unanswered tool call of the last AI message (in parallel,
 * like LangGraph's ToolNode) through the middlewares' tool wrappers and returns their
 * ToolMessages, or the Commands tools return (e.g. `present_files` updating `artifacts`). A
 * failing or unknown tool becomes an error ToolMessage, never a failed run; only cancellation
 * and graph control flow propagate. A result whose Command says `goto: END` (clarification)
 * ends the turn; otherwise the model runs next.
 */
export function createToolStep(tools: readonly StructuredToolInterface[], context: StepContext) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return async (state: ThreadState, config: LangGraphRunnableConfig): Promise<ToolStepResult> => {
    const source: RuntimeSource = { ...context, config };
    const handler = composeToolHandler(context.middlewares, invokeTool(config, byName), source);
    const calls = pendingToolCalls(state.messages);
    const outputs = await Promise.all(
      calls.map((call) => runToolCall(handler, call, byName, state, config)),
    );
    let endTurn = false;
    const updates: ToolStepResult = outputs.map((output) => {
      if (!isCommand(output)) return { messages: [output] };
      const targets = gotoTargets(output);
      if (targets.length === 0) return output;
      if (targets.includes(END)) endTurn = true;
      // Routing is this step's job (several calls run at once); keep only the state update.
      return new Command({ update: output.update });
    });
    return [...updates, new Command({ goto: endTurn ? context.exitNode : "model" })];
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
  handler: ToolHandler,
  call: ToolCall,
  tools: ReadonlyMap<string, StructuredToolInterface>,
  state: ThreadState,
  config: LangGraphRunnableConfig,
): Promise<ToolCallResult> {
  try {
    return await handler({ toolCall: call, tool: tools.get(call.name), state });
  } catch (error) {
    // The last safety net, for graphs built without the tool-error middleware.
    if (isGraphBubbleUp(error) || config.signal?.aborted) throw error;
    return toolFailureMessage(call, error);
  }
}

/** The innermost tool handler: invoke the tool, throw what it throws. */
function invokeTool(
  config: LangGraphRunnableConfig,
  tools: ReadonlyMap<string, StructuredToolInterface>,
): ToolHandler {
  return async ({ toolCall, tool }) => {
    if (!tool) {
      const known = [...tools.keys()].join(", ") || "none";
      return errorToolMessage(
        toolCall,
        `Error: ${toolCall.name} is not a valid tool, try one of [${known}].`,
      );
    }
    const id = toolCall.id ?? "";
    const output: unknown = await tool.invoke({ ...toolCall, id, type: "tool_call" }, config);
    if (isCommand(output) || output instanceof ToolMessage) return output;
    return new ToolMessage({
      content: typeof output === "string" ? output : JSON.stringify(output),
      tool_call_id: id,
      name: toolCall.name,
    });
  };
}

function gotoTargets(command: Command): unknown[] {
  const goto: unknown = command.goto;
  if (goto === undefined || goto === null) return [];
  return Array.isArray(goto) ? goto : [goto];
}
