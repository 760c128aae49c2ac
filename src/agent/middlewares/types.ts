import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Command, LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ThreadState, ThreadStateUpdate } from "../lead-agent/thread-state.js";

/**
 * The lead agent's middleware contract, modelled on LangChain's
 * `createMiddleware`: state hooks before/after the agent and the model, and wrappers around each
 * model call and each tool call. Dispatch: `beforeAgent`/`beforeModel` run in list order,
 * `afterModel`/`afterAgent` in reverse list order; for the wrappers the first list element is the
 * outermost.
 */

export type HookName =
  | "beforeAgent"
  | "beforeModel"
  | "wrapModelCall"
  | "afterModel"
  | "wrapToolCall"
  | "afterAgent";

/** What a state hook returns: a state update for the graph, and where to go next (afterModel). */
export interface StateHookResult {
  update?: ThreadStateUpdate;
  /** afterModel only: run the model again instead of routing to tools or the end. */
  jumpTo?: "model";
}

export interface ModelRequest {
  /** The conversation sent to the model (without the system prompt). */
  readonly messages: readonly BaseMessage[];
  readonly systemPrompt: string | undefined;
  /** The tools the model may call in this request (a middleware may narrow them). */
  readonly tools: readonly StructuredToolInterface[];
  /** Thread state as the model step sees it (earlier hooks' updates applied). */
  readonly state: ThreadState;
}

export type ModelHandler = (request: ModelRequest) => Promise<AIMessage>;

export interface ToolCallRequest {
  readonly toolCall: ToolCall;
  /** Undefined when the model asked for a tool that does not exist. */
  readonly tool: StructuredToolInterface | undefined;
  readonly state: ThreadState;
}

/** A tool's outcome: its message, or a Command carrying a state update (and maybe `goto: END`). */
export type ToolCallResult = ToolMessage | Command;

export type ToolHandler = (request: ToolCallRequest) => Promise<ToolCallResult>;

/** What a hook may use besides the state: run identity, evidence, and models for side calls. */
export interface MiddlewareRuntime {
  /** The graph node's config: pass it on to model and tool calls (signal, callbacks). */
  readonly config: LangGraphRunnableConfig;
  readonly threadId: string | undefined;
  readonly runId: string | undefined;
  readonly userId: string;
  /** `configurable` merged with `context` (context wins), as the reference reads run options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The run's chat model without tools bound, or a configured one by name (falls back). */
  model(name?: string | null): Promise<BaseChatModel>;
  /** Leaves evidence in the run journal (`middleware:{tag}`); a no-op without a journal. */
  record(hook: HookName, action: string, changes?: unknown): void;
}

export interface AgentMiddleware {
  readonly name: string;
  /** Journal tag (`middleware:{tag}`), 1-21 characters. */
  readonly tag: string;
  /** Tools this middleware brings (e.g. `write_todos`); bound to the model like any other. */
  readonly tools?: readonly StructuredToolInterface[];
  beforeAgent?(
    state: ThreadState,
    runtime: MiddlewareRuntime,
  ): Promise<StateHookResult | undefined>;
  beforeModel?(
    state: ThreadState,
    runtime: MiddlewareRuntime,
  ): Promise<StateHookResult | undefined>;
  wrapModelCall?(
    request: ModelRequest,
    next: ModelHandler,
    runtime: MiddlewareRuntime,
  ): Promise<AIMessage>;
  afterModel?(state: ThreadState, runtime: MiddlewareRuntime): Promise<StateHookResult | undefined>;
  wrapToolCall?(
    request: ToolCallRequest,
    next: ToolHandler,
    runtime: MiddlewareRuntime,
  ): Promise<ToolCallResult>;
  afterAgent?(state: ThreadState, runtime: MiddlewareRuntime): Promise<StateHookResult | undefined>;
}
