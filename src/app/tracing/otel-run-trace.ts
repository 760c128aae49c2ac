import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { describeError } from "../../core/errors.js";
import type { TracedRun } from "../../ports/run-tracing.js";
import { OtelCallbackHandler } from "./otel-callback-handler.js";
import {
  FAWN_ASSISTANT_ID,
  FAWN_FINALIZER_STAGE,
  FAWN_GRAPH_ID,
  FAWN_RUN_ID,
  FAWN_RUN_STATUS,
  FAWN_THREAD_ID,
  GEN_AI_CONVERSATION_ID,
} from "./span-attributes.js";

/**
 * One run's OpenTelemetry spans: `fawn.run` from admission to the end of finalization, with
 * `fawn.run.admission` (admitted → started), the graph's spans from the callback handler, and
 * `fawn.run.finalize` holding one `fawn.finalizer.<stage>` span per finalizer stage.
 */
export class OtelRunTrace {
  readonly handler: OtelCallbackHandler;
  private readonly runSpan: Span;
  private readonly runContext: Context;
  private admission: Span | null;
  private finalize: { span: Span; context: Context } | null = null;
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    run: TracedRun,
    captureContent: boolean,
  ) {
    const admittedAt = timeOf(run.admittedAt);
    this.runSpan = tracer.startSpan(
      "fawn.run",
      {
        kind: SpanKind.INTERNAL,
        startTime: admittedAt,
        attributes: {
          [FAWN_RUN_ID]: run.runId,
          [FAWN_THREAD_ID]: run.threadId,
          [FAWN_GRAPH_ID]: run.graphId,
          [GEN_AI_CONVERSATION_ID]: run.threadId,
          ...(run.assistantId ? { [FAWN_ASSISTANT_ID]: run.assistantId } : {}),
        },
      },
      ROOT_CONTEXT,
    );
    this.runContext = trace.setSpan(ROOT_CONTEXT, this.runSpan);
    this.admission = tracer.startSpan(
      "fawn.run.admission",
      { startTime: admittedAt },
      this.runContext,
    );
    this.handler = new OtelCallbackHandler(tracer, this.runContext, {
      graphId: run.graphId,
      captureContent,
    });
  }

  /** False when the sampler dropped this run: nothing of it is recorded. */
  get recording(): boolean {
    return this.runSpan.isRecording();
  }

  started(): void {
    this.admission?.end();
    this.admission = null;
  }

  async stage<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.finalize ??= this.openFinalize();
    const span = this.tracer.startSpan(
      `fawn.finalizer.${name}`,
      { attributes: { [FAWN_FINALIZER_STAGE]: name } },
      this.finalize.context,
    );
    try {
      return await work();
    } catch (error) {
      // Finalizer failures are the runtime's own (stores, bridge), not the user's content.
      span.setStatus({ code: SpanStatusCode.ERROR, message: describeError(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  end(outcome: { status: string; error?: string | null }): void {
    if (this.ended) return;
    this.ended = true;
    this.started();
    this.handler.endOpenSpans();
    this.finalize?.span.end();
    this.runSpan.setAttribute(FAWN_RUN_STATUS, outcome.status);
    if (outcome.status === "error") {
      this.runSpan.setStatus({ code: SpanStatusCode.ERROR, message: "run failed" });
    }
    this.runSpan.end();
  }

  private openFinalize(): { span: Span; context: Context } {
    const span = this.tracer.startSpan("fawn.run.finalize", {}, this.runContext);
    return { span, context: trace.setSpan(this.runContext, span) };
  }
}

function timeOf(iso: string): Date {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date() : date;
}
