import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  SystemMessage,
} from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createToolStep, pendingToolCalls } from "./execute-tool-calls.js";
import { type ThreadState, ThreadStateAnnotation } from "./thread-state.js";

/** The tag on the lead agent's own model calls; the run journal attributes usage by it. */
export const LEAD_AGENT_TAG = "lead_agent";

export interface LeadAgentOptions {
  model: BaseChatModel;
  tools?: readonly StructuredToolInterface[];
  /** Where thread state is kept between runs; omit for a stateless graph. */
  checkpointer?: BaseCheckpointSaver;
  /** Sent first on every model call; never stored in the thread. */
  systemPrompt?: string;
  /** The compiled graph's name (default `lead_agent`). */
  name?: string;
}

/**
 * The lead agent: a LangGraph state graph looping model → tools → model until the model answers
 * without tool calls. Middlewares (reference §1.3) will wrap the two steps.
 */
export function createLeadAgent(options: LeadAgentOptions) {
  const tools = options.tools ?? [];
  const model =
    tools.length > 0 && options.model.bindTools
      ? options.model.bindTools([...tools])
      : options.model;
  const taggedModel = model.withConfig({ tags: [LEAD_AGENT_TAG] });
  const systemPrompt = options.systemPrompt;

  const callModel = async (state: ThreadState, config: RunnableConfig) => {
    const request: BaseMessage[] = systemPrompt
      ? [new SystemMessage(systemPrompt), ...state.messages]
      : state.messages;
    const response = await taggedModel.invoke(request, config);
    return { messages: [asStoredMessage(response)] };
  };

  return new StateGraph(ThreadStateAnnotation)
    .addNode("model", callModel)
    .addNode("tools", createToolStep(tools))
    .addEdge(START, "model")
    .addConditionalEdges("model", routeAfterModel, ["tools", END])
    .addEdge("tools", "model")
    .compile({
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
      name: options.name ?? "lead_agent",
    });
}

export type LeadAgentGraph = ReturnType<typeof createLeadAgent>;

function routeAfterModel(state: ThreadState): "tools" | typeof END {
  return pendingToolCalls(state.messages).length > 0 ? "tools" : END;
}

/**
 * A streamed answer arrives as an AIMessageChunk; the thread stores a plain AIMessage so clients
 * and checkpoints see the same `ai` message whether or not the call was streamed.
 */
function asStoredMessage(message: BaseMessage): BaseMessage {
  if (!AIMessageChunk.isInstance(message)) return message;
  return new AIMessage({
    content: message.content,
    id: message.id,
    name: message.name,
    tool_calls: message.tool_calls,
    invalid_tool_calls: message.invalid_tool_calls,
    additional_kwargs: withoutRawToolCalls(message.additional_kwargs),
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
  });
}

/** Streamed OpenAI answers keep raw tool-call fragments here; `tool_calls` is the parsed truth. */
function withoutRawToolCalls(kwargs: Record<string, unknown>): Record<string, unknown> {
  const { tool_calls: _raw, ...rest } = kwargs;
  return rest;
}
