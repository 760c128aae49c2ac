import type { Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { TracingSettings } from "../../core/config/tracing-schema.js";

/** This Fawn's own tracer provider (never the process-global one: a process may hold several). */
export interface OtelTracing {
  tracer: Tracer;
  /** Flushes what is buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * A provider exporting over OTLP/HTTP to `tracing.otlp_endpoint` (when set) and to any extra
 * processors (an embedder's, or a test's in-memory exporter). Null when there is nowhere to send.
 */
export function createOtelTracing(
  settings: TracingSettings,
  extraProcessors: readonly SpanProcessor[] = [],
): OtelTracing | null {
  const processors: SpanProcessor[] = [...extraProcessors];
  if (settings.otlp_endpoint) {
    const exporter = new OTLPTraceExporter({
      url: settings.otlp_endpoint,
      headers: { ...settings.otlp_headers },
    });
    processors.push(new BatchSpanProcessor(exporter));
  }
  if (processors.length === 0) return null;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.service_name }),
    // One decision per run: its root span is sampled, every child follows it.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sample_ratio) }),
    spanProcessors: processors,
  });
  return {
    tracer: provider.getTracer("fawn"),
    shutdown: () => provider.shutdown(),
  };
}
