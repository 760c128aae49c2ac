import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { withDeadline } from "../../core/async/deadline.js";
import type { TracingSettings } from "../../core/config/tracing-schema.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { RunTrace, RunTracing, TracedRun } from "../../ports/run-tracing.js";
import { LangfuseTracing } from "./langfuse-tracing.js";
import { LangsmithTracing } from "./langsmith-tracing.js";
import { OtelRunTrace } from "./otel-run-trace.js";
import { createOtelTracing, type OtelTracing } from "./otel-tracer-provider.js";

/** What a Fawn holds of tracing: the runtime's `RunTracing` (null: off) and its shutdown. */
export interface TracingHost {
  readonly tracing: RunTracing | null;
  /** The integrations on, for start-up logs and `fawn doctor` (`otlp`, `langsmith`, `langfuse`). */
  readonly enabled: readonly string[];
  /** Flushes every exporter and stops them (called by `Fawn.close()`, after the runs). */
  shutdown(): Promise<void>;
}

export interface TracingHostOptions {
  /** Extra OpenTelemetry span processors (an embedder's own exporter, a test's in-memory one). */
  spanProcessors?: readonly SpanProcessor[];
  logger: Logger;
  /** How long `shutdown` waits for the exporters (default 5 s): a dead collector must not hold it. */
  flushTimeoutMs?: number;
}

const DEFAULT_FLUSH_TIMEOUT_MS = 5_000;

/** Builds this Fawn's tracing from `tracing:`; with everything off it is null and costs nothing. */
export function createTracingHost(
  settings: TracingSettings,
  options: TracingHostOptions,
): TracingHost {
  const otel = createOtelTracing(settings, options.spanProcessors);
  const langsmith = settings.langsmith.enabled ? new LangsmithTracing(settings.langsmith) : null;
  const langfuse = settings.langfuse.enabled ? new LangfuseTracing(settings.langfuse) : null;
  const enabled = [
    ...(settings.otlp_endpoint ? ["otlp"] : []),
    ...(langsmith ? ["langsmith"] : []),
    ...(langfuse ? ["langfuse"] : []),
  ];
  const tracing =
    otel || langsmith || langfuse
      ? new ConfiguredRunTracing(otel, langsmith, langfuse, settings.capture_content)
      : null;
  return {
    tracing,
    enabled,
    async shutdown() {
      const timeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS;
      const flushes: Array<[string, Promise<void> | undefined]> = [
        ["otlp", otel?.shutdown()],
        ["langsmith", langsmith?.flush()],
        ["langfuse", langfuse?.shutdown()],
      ];
      // In parallel and bounded: a collector that is down must not stop the process from closing.
      await Promise.all(
        flushes.map(async ([name, flush]) => {
          if (!flush) return;
          const message = `${name} traces were not sent within ${timeoutMs} ms`;
          await withDeadline(flush, timeoutMs, message).catch((error: unknown) =>
            options.logger.warn(
              { exporter: name, error: describeError(error) },
              "trace flush failed",
            ),
          );
        }),
      );
    },
  };
}

class ConfiguredRunTracing implements RunTracing {
  constructor(
    private readonly otel: OtelTracing | null,
    private readonly langsmith: LangsmithTracing | null,
    private readonly langfuse: LangfuseTracing | null,
    private readonly captureContent: boolean,
  ) {}

  startRun(run: TracedRun): RunTrace | null {
    const spans = this.otel ? new OtelRunTrace(this.otel.tracer, run, this.captureContent) : null;
    const otel = spans?.recording ? spans : null;
    const callbacks: unknown[] = [
      ...(otel ? [otel.handler] : []),
      ...(this.langsmith ? [this.langsmith.tracerFor(run, run.langsmithProject ?? undefined)] : []),
      ...(this.langfuse ? [this.langfuse.handlerFor(run)] : []),
    ];
    if (callbacks.length === 0) return null;
    return {
      callbacks,
      started: () => otel?.started(),
      stage: (name, work) => (otel ? otel.stage(name, work) : work()),
      end: (outcome) => otel?.end(outcome),
    };
  }
}
