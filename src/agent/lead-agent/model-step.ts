import { randomUUID } from "node:crypto";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  SystemMessage,
} from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { composeModelHandler, runStateHooks } from "../middlewares/chain.js";
import type { RuntimeSource } from "../middlewares/runtime.js";
import { applyUpdate } from "../middlewares/state-view.js";
import type { ModelHandler } from "../middlewares/types.js";
import { pendingToolCalls } from "./execute-tool-calls.js";
import type { StepContext } from "./step-context.js";
import type { ThreadState, ThreadStateUpdate } from "./thread-state.js";

export type ModelStepResult = Array<Command | ThreadStateUpdate>;

type ModelCallable = Runnable<BaseLanguageModelInput, BaseMessage, RunnableConfig>;

export interface ModelStepOptions {
  /** The model as the lead agent calls it: every tool bound, tagged `lead_agent`. */
  callable: ModelCallable;
  /** The tools bound to `callable`; a request may narrow them (skill tool policy). */
  tools: readonly StructuredToolInterface[];
  /** Binds a narrower tool list the same way `callable` was bound. */
  bindTools?: (tools: readonly StructuredToolInterface[]) => ModelCallable;
  systemPrompt?: string | undefined;
}

/**
 * The graph's model step: before-model hooks, the model call wrapped by the middlewares, then
 * after-model hooks (reverse order). All of it is one graph step, so one model turn is one
 * checkpoint; the hooks' updates are committed in order through the state reducers. The step
 * routes itself: tools when the answer calls some, the model again when a hook asks for it,
 * else the end of the turn.
 */
export function createModelStep(options: ModelStepOptions, context: StepContext) {
  // A narrowed tool list is bound once per distinct set of names, not on every call.
  const narrowed = new Map<string, ModelCallable>();
  const callableFor = (tools: readonly StructuredToolInterface[]): ModelCallable => {
    if (tools === options.tools || !options.bindTools) return options.callable;
    const key = tools.map((tool) => tool.name).join("\u0000");
    let callable = narrowed.get(key);
    if (!callable) {
      callable = options.bindTools(tools);
      narrowed.set(key, callable);
    }
    return callable;
  };
  const callModel: (config: RunnableConfig) => ModelHandler = (config) => async (request) => {
    const messages: BaseMessage[] = request.systemPrompt
      ? [new SystemMessage(request.systemPrompt), ...request.messages]
      : [...request.messages];
    return asStoredMessage(await callableFor(request.tools).invoke(messages, config));
  };

  return async (state: ThreadState, config: LangGraphRunnableConfig): Promise<ModelStepResult> => {
    const source: RuntimeSource = { ...context, config };
    const before = await runStateHooks("beforeModel", context.middlewares, state, source);
    const handler = composeModelHandler(context.middlewares, callModel(config), source);
    const response = await handler({
      messages: before.state.messages,
      systemPrompt: options.systemPrompt,
      tools: options.tools,
      state: before.state,
    });
    const answered: ThreadStateUpdate = { messages: [response] };
    const afterState = applyUpdate(before.state, answered);
    const after = await runStateHooks("afterModel", context.middlewares, afterState, source);
    const goto =
      after.jumpTo === "model"
        ? "model"
        : pendingToolCalls(after.state.messages).length > 0
          ? "tools"
          : context.exitNode;
    return [...before.updates, answered, ...after.updates, new Command({ goto })];
  };
}

/**
 * A streamed answer arrives as an AIMessageChunk; the thread stores a plain AIMessage so clients
 * and checkpoints see the same `ai` message whether or not the call was streamed. The id is fixed
 * here so after-model hooks can replace the message by id.
 */
function asStoredMessage(message: BaseMessage): AIMessage {
  const ai = AIMessage.isInstance(message) ? message : null;
  if (ai && !AIMessageChunk.isInstance(ai) && ai.id) return ai;
  return new AIMessage({
    content: message.content,
    id: message.id ?? randomUUID(),
    name: message.name,
    tool_calls: ai?.tool_calls ?? [],
    invalid_tool_calls: ai?.invalid_tool_calls ?? [],
    additional_kwargs: withoutRawToolCalls(message.additional_kwargs),
    response_metadata: message.response_metadata,
    usage_metadata: ai?.usage_metadata,
  });
}

/** Streamed OpenAI answers keep raw tool-call fragments here; `tool_calls` is the parsed truth. */
function withoutRawToolCalls(kwargs: Record<string, unknown>): Record<string, unknown> {
  const { tool_calls: _raw, ...rest } = kwargs;
  return rest;
}
