import type { Serialized } from "@langchain/core/load/serializable";
import type { ChainValues } from "@langchain/core/utils/types";
import { CallbackHandler } from "@langfuse/langchain";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import { setLangfuseTracerProvider } from "@langfuse/tracing";
import type { Attributes, Context } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { LangfuseSettings } from "../../core/config/tracing-schema.js";
import type { TracedRun } from "../../ports/run-tracing.js";

/**
 * Langfuse through its LangChain `CallbackHandler`. Langfuse v5 is OpenTelemetry-based: the
 * handler makes spans with the tracer provider Langfuse keeps process-wide, and a
 * `LangfuseSpanProcessor` sends them to `<host>/api/public/otel/v1/traces` (Basic auth with the
 * key pair). So that several Fawns in one process each reach their own Langfuse, the process-wide
 * provider routes every trace to the processor of the Fawn whose handler started it.
 */
export class LangfuseTracing {
  private readonly processor: LangfuseSpanProcessor;

  constructor(settings: LangfuseSettings) {
    this.processor = new LangfuseSpanProcessor({
      ...(settings.public_key ? { publicKey: settings.public_key } : {}),
      ...(settings.secret_key ? { secretKey: settings.secret_key } : {}),
      baseUrl: settings.host.replace(/\/+$/, ""),
      ...(settings.environment ? { environment: settings.environment } : {}),
    });
    langfuseRouter().add(this.processor);
  }

  /** The run's handler: a thread is a Langfuse session; the trace carries the run's ids. */
  handlerFor(run: TracedRun): CallbackHandler {
    return new RoutedCallbackHandler({
      processor: this.processor,
      attributes: traceAttributesOf(run),
    });
  }

  /** Sends what is buffered and stops this Fawn's processor. */
  async shutdown(): Promise<void> {
    try {
      await this.processor.forceFlush();
      await this.processor.shutdown();
    } finally {
      langfuseRouter().remove(this.processor);
    }
  }
}

/** Where a trace goes, and the trace-level attributes each of its spans carries. */
interface TraceRoute {
  processor: SpanProcessor;
  attributes: Attributes;
}

/**
 * Langfuse's trace attributes (its `propagateAttributes` would carry them through the OTel
 * context, which needs a global context manager; the router stamps them on each span instead).
 */
function traceAttributesOf(run: TracedRun): Attributes {
  return {
    "session.id": run.threadId,
    ...(run.userId ? { "user.id": run.userId } : {}),
    "langfuse.trace.name": run.assistantId ?? run.graphId,
    "langfuse.trace.metadata.run_id": run.runId,
    "langfuse.trace.metadata.thread_id": run.threadId,
    "langfuse.trace.metadata.graph_id": run.graphId,
  };
}

/** A handler that names its route while it starts spans (see `TraceRouter`). */
class RoutedCallbackHandler extends CallbackHandler {
  constructor(private readonly route: TraceRoute) {
    super();
  }

  // Only the graph's root chain starts a trace; every other span has a parent in that trace.
  override handleChainStart(
    chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runType?: string,
    name?: string,
  ): Promise<void> {
    const router = langfuseRouter();
    router.starting = this.route;
    try {
      // Langfuse starts the span synchronously, before the handler's first await.
      return super.handleChainStart(
        chain,
        inputs,
        runId,
        parentRunId,
        tags,
        metadata,
        runType,
        name,
      );
    } finally {
      router.starting = null;
    }
  }
}

/**
 * The span processor of the process-wide Langfuse provider: a root span goes to the processor
 * that was starting it, and every other span to its trace's processor.
 */
class TraceRouter implements SpanProcessor {
  starting: TraceRoute | null = null;
  private readonly processors = new Set<SpanProcessor>();
  private readonly byTrace = new Map<string, TraceRoute>();

  add(processor: SpanProcessor): void {
    this.processors.add(processor);
  }

  remove(processor: SpanProcessor): void {
    this.processors.delete(processor);
    for (const [traceId, route] of this.byTrace) {
      if (route.processor === processor) this.byTrace.delete(traceId);
    }
  }

  onStart(span: Span, parentContext: Context): void {
    const traceId = span.spanContext().traceId;
    let route = this.byTrace.get(traceId);
    if (!route && this.starting && this.processors.has(this.starting.processor)) {
      route = this.starting;
      this.byTrace.set(traceId, route);
    }
    if (!route) return;
    span.setAttributes(route.attributes);
    route.processor.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const traceId = span.spanContext().traceId;
    const route = this.byTrace.get(traceId);
    route?.processor.onEnd(span);
    if (route && !span.parentSpanContext) this.byTrace.delete(traceId);
  }

  async forceFlush(): Promise<void> {
    await Promise.all([...this.processors].map((processor) => processor.forceFlush()));
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
  }
}

let router: TraceRouter | null = null;

/** Installed once, at the first Fawn with Langfuse on (it replaces Langfuse's own default). */
function langfuseRouter(): TraceRouter {
  if (!router) {
    router = new TraceRouter();
    setLangfuseTracerProvider(new BasicTracerProvider({ spanProcessors: [router] }));
  }
  return router;
}
