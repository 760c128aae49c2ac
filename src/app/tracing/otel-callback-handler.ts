import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { ChainValues } from "@langchain/core/utils/types";
import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { callerOf } from "../../runtime/journal/usage-ledger.js";
import {
  FAWN_CALLER,
  FAWN_TOOL_STATUS,
  GEN_AI_AGENT_NAME,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_FINISH_REASONS,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  GEN_AI_USAGE_INPUT_TOKENS,
  GEN_AI_USAGE_OUTPUT_TOKENS,
  MAX_CAPTURED_CHARS,
} from "./span-attributes.js";

/** A LangChain run the handler knows: its span (when it has one) and the context children use. */
interface TrackedRun {
  kind: "agent" | "model" | "tool" | "chain";
  span: Span | null;
  context: Context;
  /** A model call whose request named no model. */
  unnamed?: boolean;
}

type Serialized = { id?: string[]; name?: string };

/**
 * Turns a run's LangChain callbacks into OpenTelemetry spans under the run's span: the graph
 * (`invoke_agent`), each model call (`chat <model>`, with token usage), each tool call
 * (`execute_tool <name>`) and each sub-agent (`invoke_agent subagent:<type>`, a child of its
 * `task` call through LangChain's parent run ids). Other chains (graph nodes, sequences) get no
 * span of their own; their children hang under the nearest traced ancestor. Parents are passed
 * explicitly, so no context manager (AsyncLocalStorage) is involved.
 */
export class OtelCallbackHandler extends BaseCallbackHandler {
  name = "fawn_otel_tracer";
  // Synchronous and cheap: awaited, so a parent's span always exists before its children's.
  override awaitHandlers = true;
  private readonly runs = new Map<string, TrackedRun>();

  constructor(
    private readonly tracer: Tracer,
    private readonly runContext: Context,
    private readonly options: { graphId: string; captureContent: boolean },
  ) {
    super();
  }

  override handleChainStart(
    chain: Serialized,
    _inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    _metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    const parent = this.parentOf(parentRunId);
    const subagent =
      parent.kind === "tool" ? tags?.find((tag) => tag.startsWith("subagent:")) : undefined;
    if (parentRunId === undefined || subagent !== undefined) {
      const agent = subagent ?? runName ?? chain.name ?? this.options.graphId;
      this.open(runId, "agent", `invoke_agent ${agent}`, parent.context, {
        [GEN_AI_OPERATION_NAME]: "invoke_agent",
        [GEN_AI_AGENT_NAME]: agent,
      });
      return;
    }
    this.runs.set(runId, { kind: "chain", span: null, context: parent.context });
  }

  override handleChainEnd(_outputs: ChainValues, runId: string): void {
    this.close(runId);
  }

  override handleChainError(error: Error, runId: string): void {
    this.close(runId, error);
  }

  override handleChatModelStart(
    _llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.openModelCall(runId, parentRunId, extraParams, tags, metadata, () =>
      messages.flat().map((message) => ({ role: message.getType(), content: message.content })),
    );
  }

  override handleLLMStart(
    _llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.openModelCall(runId, parentRunId, extraParams, tags, metadata, () =>
      prompts.map((content) => ({ role: "user", content })),
    );
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const span = this.runs.get(runId)?.span;
    if (span) {
      const usage = usageOf(output);
      if (usage.input !== undefined) span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, usage.input);
      if (usage.output !== undefined) span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, usage.output);
      if (usage.model) {
        span.setAttribute(GEN_AI_RESPONSE_MODEL, usage.model);
        // A model that names itself only in its answer (the scripted one) names its span then.
        if (this.runs.get(runId)?.unnamed) span.updateName(`chat ${usage.model}`);
      }
      if (usage.finishReasons.length > 0) {
        span.setAttribute(GEN_AI_RESPONSE_FINISH_REASONS, usage.finishReasons);
      }
      if (this.options.captureContent) {
        const texts = output.generations.flat().map((generation) => generation.text);
        span.setAttribute(GEN_AI_OUTPUT_MESSAGES, captured(texts));
      }
    }
    this.close(runId);
  }

  override handleLLMError(error: Error, runId: string): void {
    this.close(runId, error);
  }

  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    const name = runName ?? tool.name ?? tool.id?.at(-1) ?? "tool";
    const attributes: Attributes = {
      [GEN_AI_OPERATION_NAME]: "execute_tool",
      [GEN_AI_TOOL_NAME]: name,
      [FAWN_CALLER]: callerOf(tags),
    };
    if (toolCallId) attributes[GEN_AI_TOOL_CALL_ID] = toolCallId;
    if (this.options.captureContent) attributes[GEN_AI_TOOL_CALL_ARGUMENTS] = captured(input);
    this.open(
      runId,
      "tool",
      `execute_tool ${name}`,
      this.parentOf(parentRunId).context,
      attributes,
    );
  }

  override handleToolEnd(output: unknown, runId: string): void {
    const span = this.runs.get(runId)?.span;
    // Fawn's tools answer failures as an error ToolMessage rather than throwing.
    const failed = toolMessageStatus(output) === "error";
    span?.setAttribute(FAWN_TOOL_STATUS, failed ? "error" : "success");
    if (span && this.options.captureContent) {
      span.setAttribute(GEN_AI_TOOL_CALL_RESULT, captured(toolOutputText(output)));
    }
    if (failed) span?.setStatus({ code: SpanStatusCode.ERROR });
    this.close(runId);
  }

  override handleToolError(error: Error, runId: string): void {
    this.runs.get(runId)?.span?.setAttribute(FAWN_TOOL_STATUS, "error");
    this.close(runId, error);
  }

  /** Ends every span still open (a cancelled run's callbacks may never arrive). */
  endOpenSpans(): void {
    for (const [runId, run] of this.runs) {
      run.span?.setStatus({ code: SpanStatusCode.ERROR, message: "not finished" });
      run.span?.end();
      this.runs.delete(runId);
    }
  }

  private openModelCall(
    runId: string,
    parentRunId: string | undefined,
    extraParams: Record<string, unknown> | undefined,
    tags: string[] | undefined,
    metadata: Record<string, unknown> | undefined,
    messages: () => unknown[],
  ): void {
    const model = modelNameOf(extraParams, metadata);
    const attributes: Attributes = {
      [GEN_AI_OPERATION_NAME]: "chat",
      [FAWN_CALLER]: callerOf(tags),
    };
    if (model) attributes[GEN_AI_REQUEST_MODEL] = model;
    const provider = stringOf(metadata?.ls_provider);
    if (provider) attributes[GEN_AI_PROVIDER_NAME] = provider;
    if (this.options.captureContent) attributes[GEN_AI_INPUT_MESSAGES] = captured(messages());
    const name = model ? `chat ${model}` : "chat";
    this.open(
      runId,
      "model",
      name,
      this.parentOf(parentRunId).context,
      attributes,
      SpanKind.CLIENT,
    );
    const run = this.runs.get(runId);
    if (run && !model) run.unnamed = true;
  }

  private open(
    runId: string,
    kind: TrackedRun["kind"],
    name: string,
    parent: Context,
    attributes: Attributes,
    spanKind: SpanKind = SpanKind.INTERNAL,
  ): void {
    const span = this.tracer.startSpan(name, { kind: spanKind, attributes }, parent);
    this.runs.set(runId, { kind, span, context: trace.setSpan(parent, span) });
  }

  private close(runId: string, error?: Error): void {
    const run = this.runs.get(runId);
    if (!run) return;
    this.runs.delete(runId);
    if (!run.span) return;
    if (error) {
      // The error's class only: its message may quote the user's content.
      run.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: this.options.captureContent ? captured(error.message) : error.name,
      });
      run.span.setAttribute("error.type", error.name);
    }
    run.span.end();
  }

  /** The parent a callback's span hangs under: a known run, else the run's own span. */
  private parentOf(parentRunId: string | undefined): {
    kind: TrackedRun["kind"] | "run";
    context: Context;
  } {
    const parent = parentRunId === undefined ? undefined : this.runs.get(parentRunId);
    return parent ?? { kind: "run", context: this.runContext };
  }
}

function modelNameOf(
  extraParams: Record<string, unknown> | undefined,
  metadata: Record<string, unknown> | undefined,
): string | undefined {
  const invocation = extraParams?.invocation_params;
  const params =
    typeof invocation === "object" && invocation !== null
      ? (invocation as Record<string, unknown>)
      : {};
  return stringOf(metadata?.ls_model_name) ?? stringOf(params.model) ?? stringOf(params.model_name);
}

interface CallUsage {
  input?: number;
  output?: number;
  model?: string;
  finishReasons: string[];
}

/** Token usage and response model of a model call, from its messages or the provider's output. */
function usageOf(output: LLMResult): CallUsage {
  const usage: CallUsage = { finishReasons: [] };
  for (const generation of output.generations.flat()) {
    const message = "message" in generation ? generation.message : undefined;
    if (typeof message !== "object" || message === null) continue;
    const tokens = Reflect.get(message, "usage_metadata");
    if (typeof tokens === "object" && tokens !== null) {
      usage.input = (usage.input ?? 0) + numberOf(Reflect.get(tokens, "input_tokens"));
      usage.output = (usage.output ?? 0) + numberOf(Reflect.get(tokens, "output_tokens"));
    }
    const meta = Reflect.get(message, "response_metadata");
    if (typeof meta === "object" && meta !== null) {
      usage.model ??=
        stringOf(Reflect.get(meta, "model_name")) ?? stringOf(Reflect.get(meta, "model"));
      const reason = stringOf(Reflect.get(meta, "finish_reason"));
      if (reason) usage.finishReasons.push(reason);
    }
  }
  if (usage.input === undefined) {
    const tokenUsage = output.llmOutput?.tokenUsage;
    if (typeof tokenUsage === "object" && tokenUsage !== null) {
      usage.input = numberOf(Reflect.get(tokenUsage, "promptTokens"));
      usage.output = numberOf(Reflect.get(tokenUsage, "completionTokens"));
    }
  }
  return usage;
}

function toolMessageStatus(output: unknown): string | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  return stringOf(Reflect.get(output, "status"));
}

function toolOutputText(output: unknown): unknown {
  if (typeof output === "object" && output !== null && "content" in output) return output.content;
  return output;
}

/** Content as a bounded string attribute (only when capture is on). */
function captured(value: unknown): string {
  const text = typeof value === "string" ? value : safeJson(value);
  return text.length > MAX_CAPTURED_CHARS ? `${text.slice(0, MAX_CAPTURED_CHARS)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function numberOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
