import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ChatModelStreamEvent } from "@langchain/core/language_models/event";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  type BaseMessageChunk,
} from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import {
  ChatOpenAICompletions,
  convertMessagesToCompletionsMessageParams,
  type OpenAIClient,
} from "@langchain/openai";
import type { ModelDialect } from "./dialect.js";

type CreateParams = OpenAIClient.Chat.ChatCompletionCreateParams;
type StreamingParams = OpenAIClient.Chat.ChatCompletionCreateParamsStreaming;
type NonStreamingParams = OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming;
type Completion = OpenAIClient.Chat.Completions.ChatCompletion;
type CompletionChunk = OpenAIClient.Chat.Completions.ChatCompletionChunk;
type RequestOptions = OpenAIClient.RequestOptions;

/**
 * Carries a call's messages down to the request body, where the client no longer has them: the
 * call options reach `completionWithRetry` (streaming), their `options` do too (whole answers).
 */
const ORIGINALS = Symbol("fawn.dialect.originals");

/** The Chat Completions client with one provider's dialect applied on the way out and back. */
export class DialectCompletions extends ChatOpenAICompletions {
  constructor(
    fields: ConstructorParameters<typeof ChatOpenAICompletions>[0],
    private readonly dialect: ModelDialect,
  ) {
    super(fields);
  }

  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const prepared = this.prepare(messages);
    const withOriginals = { ...options, options: attach({ ...options.options }, prepared) };
    const result = await super._generate(prepared, withOriginals, runManager);
    const finish = this.dialect.finishMessage?.bind(this.dialect);
    if (!finish) return result;
    return {
      ...result,
      generations: result.generations.map((generation) =>
        AIMessage.isInstance(generation.message)
          ? { ...generation, message: finish(generation.message) }
          : generation,
      ),
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    if (this.dialect.wholeAnswersWithTools && (options.tools?.length ?? 0) > 0) {
      yield* this.replayWholeAnswer(messages, options, runManager);
      return;
    }
    const prepared = this.prepare(messages);
    yield* super._streamResponseChunks(prepared, attach({ ...options }, prepared), runManager);
  }

  /** The event protocol is built on `_streamResponseChunks`, so streaming keeps the dialect. */
  override _streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    return BaseChatModel.prototype._streamChatModelEvents.call(this, messages, options, runManager);
  }

  override completionWithRetry(
    request: StreamingParams,
    requestOptions?: RequestOptions,
  ): Promise<AsyncIterable<CompletionChunk>>;
  override completionWithRetry(
    request: NonStreamingParams,
    requestOptions?: RequestOptions,
  ): Promise<Completion>;
  override async completionWithRetry(
    request: CreateParams,
    requestOptions?: RequestOptions,
  ): Promise<AsyncIterable<CompletionChunk> | Completion> {
    const options: RequestOptions = { ...requestOptions };
    const originals = originalsIn(options);
    Reflect.deleteProperty(options, ORIGINALS);
    // The client builds `request` afresh for this call, so the rewrite is written back in place.
    const body: Record<string, unknown> = { ...request };
    this.dialect.rewriteRequest?.(body, originals);
    Object.assign(request, body);
    for (const key of Object.keys(request))
      if (!(key in body)) Reflect.deleteProperty(request, key);
    if (request.stream === true) return super.completionWithRetry(request, options);
    return super.completionWithRetry({ ...request, stream: false }, options);
  }

  protected override _convertCompletionsDeltaToBaseMessageChunk(
    delta: Record<string, unknown>,
    rawResponse: CompletionChunk,
    defaultRole?: OpenAIClient.Chat.ChatCompletionRole,
  ): BaseMessageChunk {
    const chunk = super._convertCompletionsDeltaToBaseMessageChunk(delta, rawResponse, defaultRole);
    const found = this.dialect.reasoningOf?.(delta);
    if (found && AIMessageChunk.isInstance(chunk)) {
      Object.assign(chunk.additional_kwargs, found.extra, reasoningKwarg(found.reasoning_content));
    }
    return chunk;
  }

  protected override _convertCompletionsMessageToBaseMessage(
    message: OpenAIClient.ChatCompletionMessage,
    rawResponse: Completion,
  ): BaseMessage {
    const converted = super._convertCompletionsMessageToBaseMessage(message, rawResponse);
    const found = this.dialect.reasoningOf?.({ ...message });
    if (found && AIMessage.isInstance(converted)) {
      Object.assign(
        converted.additional_kwargs,
        found.extra,
        reasoningKwarg(found.reasoning_content),
      );
    }
    return converted;
  }

  private prepare(messages: BaseMessage[]): BaseMessage[] {
    return this.dialect.prepareMessages?.(messages) ?? messages;
  }

  /** Asks for the whole answer and hands it on as stream chunks (text, then tool calls). */
  private async *replayWholeAnswer(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const prepared = this.prepare(messages);
    const data = await this.completionWithRetry(
      {
        ...this.invocationParams(options),
        messages: convertMessagesToCompletionsMessageParams({
          messages: prepared,
          model: this.model,
        }),
        stream: false,
      },
      attach({ signal: options.signal }, prepared),
    );
    const choice = data.choices[0];
    if (!choice) return;
    const converted = this._convertCompletionsMessageToBaseMessage(choice.message, data);
    if (!AIMessage.isInstance(converted)) return;
    const message = this.dialect.finishMessage?.(converted) ?? converted;
    const text = typeof message.content === "string" ? message.content : "";
    const usage = data.usage;
    const chunk = new AIMessageChunk({
      id: message.id,
      content: text,
      additional_kwargs: message.additional_kwargs,
      tool_call_chunks: (message.tool_calls ?? []).map((call, index) => ({
        type: "tool_call_chunk",
        name: call.name,
        args: JSON.stringify(call.args),
        id: call.id,
        index,
      })),
      response_metadata: { finish_reason: choice.finish_reason, model_name: data.model },
      ...(usage
        ? {
            usage_metadata: {
              input_tokens: usage.prompt_tokens,
              output_tokens: usage.completion_tokens,
              total_tokens: usage.total_tokens,
            },
          }
        : {}),
    });
    const generation = new ChatGenerationChunk({
      message: chunk,
      text,
      generationInfo: { finish_reason: choice.finish_reason },
    });
    yield generation;
    await runManager?.handleLLMNewToken(
      text,
      { prompt: 0, completion: 0 },
      undefined,
      undefined,
      undefined,
      {
        chunk: generation,
      },
    );
  }
}

function attach<T extends object>(target: T, messages: readonly BaseMessage[]): T {
  return Object.assign(target, { [ORIGINALS]: messages });
}

function originalsIn(options: object): readonly BaseMessage[] {
  const value: unknown = Reflect.get(options, ORIGINALS);
  return Array.isArray(value) ? value : [];
}

function reasoningKwarg(text: string | undefined): Record<string, string> {
  return text === undefined ? {} : { reasoning_content: text };
}
