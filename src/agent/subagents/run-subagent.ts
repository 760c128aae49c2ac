import type { Callbacks } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { GraphRecursionError } from "@langchain/langgraph";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { createLeadAgent } from "../lead-agent/create-lead-agent.js";
import type { ThreadDataState } from "../lead-agent/thread-state.js";
import type { SandboxState } from "../lead-agent/thread-state-reducers.js";
import { contentText } from "../middlewares/conversation.js";
import { LOOP_CAPPED } from "../middlewares/loop-detection/loop-detection-middleware.js";
import { ERROR_FALLBACK_KEY } from "../middlewares/model-retry/model-retry-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import type { SubagentType } from "./subagent-type.js";
import type { SubagentOutcome, SubagentTokenUsage } from "./task-result.js";

export const SUBAGENT_TAG_PREFIX = "subagent:";
const NO_RESPONSE = "No response generated";
const MAX_TIMER_MS = 2_147_483_647;

export interface SubagentRunRequest {
  type: SubagentType;
  prompt: string;
  model: BaseChatModel;
  /** The tools the sub-agent may call (already filtered for its type). */
  tools: readonly StructuredToolInterface[];
  middlewares: readonly AgentMiddleware[];
  /** The parent's sandbox and thread folders: the sub-agent works on the same files. */
  sandbox: SandboxState | null;
  threadData: ThreadDataState | null;
  /** thread_id, user_id, run_id of the parent run: tools resolve the thread's folders from them. */
  identity: Record<string, string>;
  /** Where the sub-agent's model and tool calls are reported (the parent run's journal). */
  callbacks?: Callbacks;
  /** The parent run's signal: its cancellation stops the sub-agent. */
  signal?: AbortSignal;
  /** Called for each new AI message, in order (1-based index), with the usage so far. */
  onAiMessage?: (message: AIMessage, index: number, usage: SubagentTokenUsage | null) => void;
  logger?: Logger;
}

/**
 * Runs one sub-agent to its end in this process: a graph from the lead agent's machinery with
 * the type's tools and chain, a SystemMessage plus the prompt as its whole conversation, and
 * the parent's sandbox and thread folders. It is never checkpointed: it runs outside the
 * parent's graph context (so LangGraph does not nest it under the parent's thread) and its
 * graph has no saver. `max_turns` is its recursion limit (a partial answer survives as
 * `turn_capped`); `timeout_seconds` aborts it (`timed_out`); the parent's cancellation aborts
 * it too (`cancelled`). Never throws: every ending is an outcome.
 */
export async function runSubagent(request: SubagentRunRequest): Promise<SubagentOutcome> {
  const { type } = request;
  const tag = `${SUBAGENT_TAG_PREFIX}${type.name}`;
  const graph = createLeadAgent({
    model: taggedFirst(request.model, tag),
    tools: request.tools,
    middlewares: request.middlewares,
    name: tag,
    ...(request.logger ? { logger: request.logger } : {}),
  });
  const deadline = new AbortController();
  // setTimeout fires at once past 2^31-1 ms; a longer limit is as good as none.
  const timer = setTimeout(
    () => deadline.abort(),
    Math.min(type.timeoutSeconds * 1000, MAX_TIMER_MS),
  );
  const signal = request.signal
    ? AbortSignal.any([request.signal, deadline.signal])
    : deadline.signal;
  const progress = new AiMessageLog(request.onAiMessage);
  let latest: readonly BaseMessage[] = [];
  try {
    await outsideParentGraph(async () => {
      const stream = await graph.stream(
        {
          messages: [new SystemMessage(type.systemPrompt), new HumanMessage(request.prompt)],
          ...(request.sandbox ? { sandbox: request.sandbox } : {}),
          ...(request.threadData ? { thread_data: request.threadData } : {}),
        },
        {
          configurable: { ...request.identity },
          context: { ...request.identity, is_subagent: true },
          tags: [tag],
          recursionLimit: type.maxTurns,
          streamMode: "values",
          signal,
          ...(request.callbacks ? { callbacks: request.callbacks } : {}),
        },
      );
      for await (const state of stream) {
        latest = state.messages;
        progress.observe(latest);
      }
    });
    return finishedOutcome(latest, progress.usage());
  } catch (error) {
    const usage = progress.usage();
    if (deadline.signal.aborted) {
      return {
        status: "timed_out",
        error: `Execution timed out after ${type.timeoutSeconds} seconds`,
        usage,
      };
    }
    if (request.signal?.aborted) return { status: "cancelled", error: CANCELLED_TEXT, usage };
    if (error instanceof GraphRecursionError) return turnCappedOutcome(latest, type, usage);
    request.logger?.warn({ subagent: type.name, error: describeError(error) }, "sub-agent failed");
    return { status: "failed", error: describeError(error), usage };
  } finally {
    clearTimeout(timer);
  }
}

export const CANCELLED_TEXT = "Task cancelled by user.";

/**
 * LangGraph treats a graph started inside a running node as that node's subgraph (it reads the
 * node's config from AsyncLocalStorage) and would checkpoint it into the parent's thread. The
 * sub-agent is a run of its own, so it starts with no ambient config.
 */
function outsideParentGraph<T>(work: () => Promise<T>): Promise<T> {
  return AsyncLocalStorageProviderSingleton.getInstance().run(undefined, work);
}

/**
 * The lead-agent graph binds its model with the `lead_agent` tag, and the run journal and the
 * scripted model name a call's caller by its first such tag. This view of the model (and of what
 * `bindTools` returns) puts the sub-agent's tag first whenever a config is bound, so the calls
 * count as `subagent:<type>`. `withConfig` replaces tags rather than merging them, hence the view.
 */
function taggedFirst<R extends Runnable>(runnable: R, tag: string): R {
  return new Proxy(runnable, {
    get(target, property, receiver) {
      if (property === "withConfig") {
        return (config: Partial<RunnableConfig>) =>
          target.withConfig({ ...config, tags: [tag, ...(config.tags ?? [])] });
      }
      if (property === "bindTools" && target instanceof BaseChatModel) {
        return (...args: Parameters<NonNullable<BaseChatModel["bindTools"]>>) => {
          if (!target.bindTools) throw new Error("This model cannot call tools.");
          return taggedFirst(target.bindTools(...args), tag);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

function finishedOutcome(
  messages: readonly BaseMessage[],
  usage: SubagentTokenUsage | null,
): SubagentOutcome {
  const last = lastAiMessage(messages);
  if (last?.additional_kwargs[ERROR_FALLBACK_KEY] === true) {
    return {
      status: "failed",
      error: contentText(last.content) || "The model call failed.",
      usage,
    };
  }
  const text = last ? contentText(last.content).trim() : "";
  const loopCapped = last?.additional_kwargs.stop_reason === LOOP_CAPPED;
  return {
    status: "completed",
    result: text || NO_RESPONSE,
    ...(loopCapped ? { stopReason: "loop_capped" as const } : {}),
    usage,
  };
}

/** Out of turns: the last AI text is a usable partial answer; without one the task failed. */
function turnCappedOutcome(
  messages: readonly BaseMessage[],
  type: SubagentType,
  usage: SubagentTokenUsage | null,
): SubagentOutcome {
  const last = lastAiMessage(messages);
  const text = last ? contentText(last.content).trim() : "";
  if (text && last?.additional_kwargs[ERROR_FALLBACK_KEY] !== true) {
    return { status: "completed", result: text, stopReason: "turn_capped", usage };
  }
  return {
    status: "failed",
    error: `Reached max_turns=${type.maxTurns}`,
    stopReason: "turn_capped",
    usage,
  };
}

function lastAiMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  return messages.findLast((message): message is AIMessage => AIMessage.isInstance(message));
}

/** The sub-agent's AI messages in order, each reported once, and their summed token usage. */
class AiMessageLog {
  private readonly seen = new Set<string>();
  private readonly messages: AIMessage[] = [];

  constructor(private readonly onAiMessage: SubagentRunRequest["onAiMessage"]) {}

  observe(messages: readonly BaseMessage[]): void {
    for (const message of messages) {
      if (!AIMessage.isInstance(message)) continue;
      const key = message.id ?? `index-${this.messages.length}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.messages.push(message);
      this.onAiMessage?.(message, this.messages.length, this.usage());
    }
  }

  usage(): SubagentTokenUsage | null {
    let found = false;
    const total: SubagentTokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    for (const message of this.messages) {
      const usage = message.usage_metadata;
      if (!usage) continue;
      found = true;
      total.input_tokens += usage.input_tokens;
      total.output_tokens += usage.output_tokens;
      total.total_tokens += usage.total_tokens;
    }
    return found ? total : null;
  }
}
