import {
  BaseCallbackHandler,
  type HandleLLMNewTokenCallbackFields,
} from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import { AIMessageChunk, type BaseMessage, isAIMessageChunk } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { ChainValues } from "@langchain/core/utils/types";

/**
 * One LangChain stream event (the `streamEvents` v2 schema): `on_<type>_<start|stream|end>` with
 * the runnable's name, run id, tags, metadata, parent ids and data.
 */
export interface StreamEventV2 {
  event: string;
  name: string;
  run_id: string;
  tags: string[];
  metadata: Record<string, unknown>;
  parent_ids: string[];
  data: unknown;
}

interface RunInfo {
  name: string;
  type: "chain" | "chat_model" | "llm" | "tool";
  tags: string[];
  metadata: Record<string, unknown>;
  parentIds: string[];
  input: unknown;
  /** The id of the message a chat model streams: its first chunk's (or `run-<run id>`). */
  messageId?: string;
}

/**
 * A LangChain callback handler that turns a graph's callbacks into stream events (v2), so any
 * graph — the lead agent included — streams the `events` mode (and the `messages` mode's partial
 * messages) without an interface of its own beyond `stream`. It asks chat models to stream
 * (`lc_prefer_streaming`). `onEvent` is awaited, so events leave in the order they happen.
 */
export class StreamEventsHandler extends BaseCallbackHandler {
  override name = "fawn_stream_events";
  override awaitHandlers = true;
  readonly lc_prefer_streaming = true;
  private readonly runs = new Map<string, RunInfo>();

  constructor(private readonly onEvent: (event: StreamEventV2) => Promise<void> | void) {
    super();
  }

  private async start(
    runId: string,
    parentRunId: string | undefined,
    info: Omit<RunInfo, "parentIds">,
    data: Record<string, unknown>,
  ): Promise<void> {
    const parent = parentRunId ? this.runs.get(parentRunId) : undefined;
    const parentIds = parent ? [...parent.parentIds, parentRunId ?? ""] : [];
    const run: RunInfo = { ...info, parentIds };
    this.runs.set(runId, run);
    await this.emit(`on_${run.type}_start`, runId, run, data);
  }

  private async end(runId: string, data: Record<string, unknown>): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) return;
    this.runs.delete(runId);
    await this.emit(`on_${run.type}_end`, runId, run, { input: run.input, ...data });
  }

  private emit(
    event: string,
    runId: string,
    run: RunInfo,
    data: Record<string, unknown>,
  ): Promise<void> | void {
    return this.onEvent({
      event,
      name: run.name,
      run_id: runId,
      tags: run.tags,
      metadata: run.metadata,
      parent_ids: run.parentIds,
      data,
    });
  }

  // LangChain's callback manager calls this with (…, runId, parentRunId, tags, metadata,
  // runType, runName), whatever the declared parameter order says.
  override async handleChainStart(
    chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): Promise<void> {
    const name = runName ?? nameOf(chain);
    const info = { name, type: "chain" as const, tags: tags ?? [], metadata: metadata ?? {} };
    await this.start(runId, parentRunId, { ...info, input: inputs }, { input: inputs });
  }

  override async handleChainEnd(outputs: ChainValues, runId: string): Promise<void> {
    await this.end(runId, { output: outputs });
  }

  override async handleChainError(error: Error, runId: string): Promise<void> {
    await this.end(runId, { error: String(error) });
  }

  override async handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): Promise<void> {
    const input = { messages };
    const name = runName ?? nameOf(llm);
    const info = { name, type: "chat_model" as const, tags: tags ?? [], metadata: metadata ?? {} };
    await this.start(runId, parentRunId, { ...info, input }, { input });
  }

  override async handleLLMStart(
    llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): Promise<void> {
    const input = { prompts };
    const name = runName ?? nameOf(llm);
    const info = { name, type: "llm" as const, tags: tags ?? [], metadata: metadata ?? {} };
    await this.start(runId, parentRunId, { ...info, input }, { input });
  }

  override async handleLLMNewToken(
    token: string,
    _idx: unknown,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: HandleLLMNewTokenCallbackFields,
  ): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) return;
    await this.emit(`on_${run.type}_stream`, runId, run, {
      chunk: chunkOf(run, runId, token, fields),
    });
  }

  override async handleLLMEnd(output: LLMResult, runId: string): Promise<void> {
    const run = this.runs.get(runId);
    if (!run) return;
    const first = output.generations[0]?.[0];
    const message =
      run.type === "chat_model" && first && "message" in first ? first.message : output;
    await this.end(runId, { output: message });
  }

  override async handleLLMError(error: Error, runId: string): Promise<void> {
    await this.end(runId, { error: String(error) });
  }

  override async handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): Promise<void> {
    const name = runName ?? nameOf(tool);
    const info = { name, type: "tool" as const, tags: tags ?? [], metadata: metadata ?? {} };
    await this.start(runId, parentRunId, { ...info, input }, { input });
  }

  override async handleToolEnd(output: unknown, runId: string): Promise<void> {
    await this.end(runId, { output });
  }

  override async handleToolError(error: Error, runId: string): Promise<void> {
    await this.end(runId, { error: String(error) });
  }

  override async handleCustomEvent(
    eventName: string,
    data: unknown,
    runId: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    const run = this.runs.get(runId);
    await this.onEvent({
      event: "on_custom_event",
      name: eventName,
      run_id: runId,
      tags: tags ?? run?.tags ?? [],
      metadata: metadata ?? run?.metadata ?? {},
      parent_ids: run?.parentIds ?? [],
      data,
    });
  }
}

/**
 * What a token event carries: a chat model's message chunk (made from the token when the model
 * passed none), else the generation. Every chunk of one call carries the call's first id (a
 * provider's closing usage chunk comes with LangChain's `run-<run id>` instead, a bare token
 * with none), as the call's final message does, so partial and complete messages match.
 */
function chunkOf(
  run: RunInfo,
  runId: string,
  token: string,
  fields: HandleLLMNewTokenCallbackFields | undefined,
): unknown {
  const generation = fields?.chunk;
  if (run.type !== "chat_model") return generation ?? { text: token };
  const message =
    generation && "message" in generation && isAIMessageChunk(generation.message)
      ? generation.message
      : new AIMessageChunk({ content: token });
  run.messageId ??= message.id || `run-${runId}`;
  if (message.id === run.messageId) return message;
  // Concatenated onto an empty chunk with the id (the left id wins): the caller's chunk is
  // never changed.
  return new AIMessageChunk({ content: "", id: run.messageId }).concat(message);
}

function nameOf(serialized: Serialized): string {
  const named = (serialized as { name?: unknown }).name;
  if (typeof named === "string") return named;
  const id = (serialized as { id?: unknown }).id;
  if (Array.isArray(id) && typeof id.at(-1) === "string") return String(id.at(-1));
  return "Unnamed";
}
