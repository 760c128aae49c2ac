import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { sleep } from "../../core/async/deadline.js";
import { raceCancellation } from "../../core/async/task.js";
import { CallerTracker } from "./caller-tracker.js";
import { toScriptMessages } from "./langchain-messages.js";
import {
  answerFromScript,
  estimateTokens,
  isMiddlewareCaller,
  middlewareReply,
  replyText,
  type ScriptedReply,
  splitIntoChunks,
} from "./script-engine.js";
import type { Script } from "./script-schema.js";

export interface ScriptedChatModelCallOptions extends BaseChatModelCallOptions {
  /** Who is calling (`lead_agent`, `middleware:title`, …); overrides the call's tags. */
  caller?: string;
  /** Bound tools; the script decides the calls, so they are only kept for inspection. */
  tools?: BindToolsInput[];
}

export interface ScriptedChatModelInput extends BaseChatModelParams {
  /** The script, or a loader run once on first use (file reading stays off the constructor). */
  script: Script | (() => Promise<Script>);
  /** Reported as `response_metadata.model_name`. */
  modelName?: string;
}

/**
 * A deterministic chat model that replays a script: for demos, tests and benchmarks. It streams
 * content in word chunks, emits tool calls and usage like a real provider, and answers
 * middleware calls (tagged `middleware:*`) without consuming a turn.
 */
export class ScriptedChatModel extends BaseChatModel<ScriptedChatModelCallOptions, AIMessageChunk> {
  static override lc_name(): string {
    return "ScriptedChatModel";
  }

  readonly modelName: string;
  private readonly tracker: CallerTracker;
  private scriptPromise: Promise<Script> | null = null;
  private readonly scriptSource: Script | (() => Promise<Script>);

  constructor(fields: ScriptedChatModelInput) {
    const tracker = new CallerTracker();
    const { script, modelName, callbacks, ...params } = fields;
    super({ ...params, callbacks: withTracker(tracker, callbacks) });
    this.tracker = tracker;
    this.scriptSource = script;
    this.modelName = modelName ?? "scripted";
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<ScriptedChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, ScriptedChatModelCallOptions> {
    return this.withConfig({ ...kwargs, tools });
  }

  /** The script, loaded once. A failed load is retried on the next call. */
  script(): Promise<Script> {
    if (typeof this.scriptSource !== "function") return Promise.resolve(this.scriptSource);
    if (!this.scriptPromise) {
      this.scriptPromise = this.scriptSource().catch((error: unknown) => {
        this.scriptPromise = null;
        throw error;
      });
    }
    return this.scriptPromise;
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = await this.reply(messages, options, runManager);
    if (reply.hang) {
      // Never answers: only the caller's cancellation ends this call.
      await raceCancellation(new Promise<never>(() => undefined), options.signal);
    }
    let index = 0;
    for (const chunk of this.chunksOf(reply, messages)) {
      if (index++ > 0 && reply.streamDelayMs > 0) {
        await sleep(reply.streamDelayMs, options.signal);
      }
      options.signal?.throwIfAborted();
      yield chunk;
      await runManager?.handleLLMNewToken(
        chunk.text,
        { prompt: 0, completion: 0 },
        undefined,
        undefined,
        undefined,
        { chunk },
      );
    }
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      whole = whole ? whole.concat(chunk) : chunk;
    }
    if (!whole) throw new Error("The scripted model produced no output.");
    return { generations: [whole] };
  }

  private async reply(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager: CallbackManagerForLLMRun | undefined,
  ): Promise<ScriptedReply> {
    // Read the caller first so the tracker entry is dropped even if the script fails to load.
    const caller = options.caller ?? this.tracker.take(runManager?.runId);
    const script = await this.script();
    const conversation = toScriptMessages(messages);
    return isMiddlewareCaller(caller)
      ? middlewareReply(script, caller, conversation)
      : answerFromScript(script, conversation, boundToolNames(options.tools));
  }

  /**
   * Reasoning chunks, then content chunks, then one closing chunk with tool calls and usage.
   * Each chunk is built when the stream asks for it, as a real client builds one per network
   * frame: building a long reply's chunks all at once is a long synchronous stretch, and many
   * runs reaching their model step together stall the event loop for every other connection.
   */
  private *chunksOf(reply: ScriptedReply, messages: BaseMessage[]): Generator<ChatGenerationChunk> {
    for (const piece of splitIntoChunks(reply.reasoning ?? "")) {
      yield new ChatGenerationChunk({
        text: "",
        message: new AIMessageChunk({
          content: "",
          additional_kwargs: { reasoning_content: piece },
        }),
      });
    }
    for (const piece of splitIntoChunks(reply.content)) {
      yield new ChatGenerationChunk({
        text: piece,
        message: new AIMessageChunk({ content: piece }),
      });
    }
    // Streamed arguments: the call's id and name first, then its JSON a piece at a time, as a
    // provider sends them; the closing chunk then carries no calls of its own.
    if (reply.streamToolArgs) {
      for (const [index, call] of reply.toolCalls.entries()) {
        yield toolCallChunk({ id: call.id, name: call.name, args: "", index });
        for (const piece of splitIntoChunks(JSON.stringify(call.args))) {
          yield toolCallChunk({ args: piece, index });
        }
      }
    }
    const inputTokens = estimateTokens(
      toScriptMessages(messages)
        .map((m) => m.text)
        .join(""),
    );
    const outputTokens = estimateTokens(replyText(reply));
    yield new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({
        content: "",
        tool_call_chunks: (reply.streamToolArgs ? [] : reply.toolCalls).map((call, index) => ({
          type: "tool_call_chunk",
          id: call.id,
          name: call.name,
          args: JSON.stringify(call.args),
          index,
        })),
        usage_metadata: {
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
        },
        response_metadata: {
          model_name: this.modelName,
          finish_reason: reply.toolCalls.length > 0 ? "tool_calls" : "stop",
        },
      }),
    });
  }
}

function toolCallChunk(chunk: {
  id?: string;
  name?: string;
  args: string;
  index: number;
}): ChatGenerationChunk {
  return new ChatGenerationChunk({
    text: "",
    message: new AIMessageChunk({
      content: "",
      tool_call_chunks: [{ type: "tool_call_chunk", ...chunk }],
    }),
  });
}

function withTracker(
  tracker: CallerTracker,
  callbacks: BaseChatModelParams["callbacks"],
): BaseChatModelParams["callbacks"] {
  if (callbacks === undefined) return [tracker];
  if (Array.isArray(callbacks)) return [tracker, ...callbacks];
  callbacks.addHandler(tracker);
  return callbacks;
}

/** Names of bound tools, whatever form they were bound in (tool objects or OpenAI-style specs). */
function boundToolNames(tools: BindToolsInput[] | undefined): Set<string> {
  const names = new Set<string>();
  for (const tool of tools ?? []) {
    if (typeof tool !== "object" || tool === null) continue;
    const spec = tool as { name?: unknown; function?: { name?: unknown } };
    const name = typeof spec.name === "string" ? spec.name : spec.function?.name;
    if (typeof name === "string") names.add(name);
  }
  return names;
}
