import type { TracingSettings } from "../../core/config/tracing-schema.js";
import type { DoctorItem, DoctorSection } from "./doctor-report.js";

/** Where runs' traces go (read from the config only: nothing is sent, no key is shown). */
export function tracingSection(settings: TracingSettings): DoctorSection {
  const items: DoctorItem[] = [];
  const content = settings.capture_content ? "content captured" : "no content on spans";
  if (settings.otlp_endpoint) {
    items.push({
      status: "ok",
      name: "opentelemetry",
      detail: `OTLP/HTTP to ${settings.otlp_endpoint} as ${settings.service_name}, sampling ${settings.sample_ratio}, ${content}`,
    });
  }
  if (settings.langsmith.enabled) {
    items.push({
      status: "ok",
      name: "langsmith",
      detail: `project ${settings.langsmith.project} at ${settings.langsmith.endpoint}`,
    });
  }
  if (settings.langfuse.enabled) {
    items.push({
      status: "ok",
      name: "langfuse",
      detail: `${settings.langfuse.host}${settings.langfuse.environment ? ` (environment ${settings.langfuse.environment})` : ""}`,
    });
  }
  return {
    title: "tracing",
    empty:
      "off (set tracing.otlp_endpoint or OTEL_EXPORTER_OTLP_ENDPOINT, LANGSMITH_TRACING, or LANGFUSE_TRACING)",
    items,
  };
}
