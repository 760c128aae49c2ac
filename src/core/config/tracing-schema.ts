import { z } from "zod";

/**
 * `tracing.langsmith` — LangSmith through LangChain's own tracer. The keys are the reference's
 * (`LangSmithTracingConfig`); its environment variables fill them (see `tracing-env.ts`).
 */
export const langsmithConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  api_key: z.string().min(1).optional(),
  /** The LangSmith project runs are filed under. */
  project: z.string().min(1).default("fawn"),
  endpoint: z.string().url().default("https://api.smith.langchain.com"),
});

/**
 * `tracing.langfuse` — Langfuse through its LangChain callback handler (OpenTelemetry-based, sent
 * to `<host>/api/public/otel/v1/traces`). The keys are the reference's (`LangfuseTracingConfig`).
 */
export const langfuseConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  public_key: z.string().min(1).optional(),
  secret_key: z.string().min(1).optional(),
  host: z.string().url().default("https://cloud.langfuse.com"),
  /** Langfuse's `environment` of every trace (its `LANGFUSE_TRACING_ENVIRONMENT`). */
  environment: z.string().min(1).optional(),
});

/**
 * `tracing:` — OpenTelemetry spans of every run (admission, model and tool calls, sub-agents,
 * finalizer stages), exported over OTLP/HTTP when `otlp_endpoint` is set; plus the LangSmith and
 * Langfuse integrations. Off by default; when everything is off a run carries no tracing work.
 */
export const tracingConfigSchema = z
  .strictObject({
    /** OTLP/HTTP traces URL (`http://collector:4318/v1/traces`); unset: no OpenTelemetry export. */
    otlp_endpoint: z.string().url().optional(),
    /** Headers of every export request (a collector's API key goes here; never logged). */
    otlp_headers: z.record(z.string(), z.string()).default({}),
    service_name: z.string().min(1).default("fawn"),
    /** The share of runs traced (a run's spans are all kept or all dropped). */
    sample_ratio: z.number().min(0).max(1).default(1),
    /**
     * Put message text, tool arguments and tool results on spans. Off by default: spans then
     * carry ids, names, statuses and token counts only.
     */
    capture_content: z.boolean().default(false),
    langsmith: langsmithConfigSchema.prefault({}),
    langfuse: langfuseConfigSchema.prefault({}),
  })
  .superRefine((value, ctx) => {
    if (value.langsmith.enabled && !value.langsmith.api_key) {
      ctx.addIssue({
        code: "custom",
        path: ["langsmith", "api_key"],
        message:
          "LangSmith tracing is enabled but no API key is set (tracing.langsmith.api_key or LANGSMITH_API_KEY).",
      });
    }
    if (value.langfuse.enabled) {
      const missing = [
        ...(value.langfuse.public_key ? [] : ["public_key (LANGFUSE_PUBLIC_KEY)"]),
        ...(value.langfuse.secret_key ? [] : ["secret_key (LANGFUSE_SECRET_KEY)"]),
      ];
      if (missing.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["langfuse"],
          message: `Langfuse tracing is enabled but these are missing: ${missing.join(", ")}.`,
        });
      }
    }
  });

export type TracingSettings = z.output<typeof tracingConfigSchema>;
export type LangsmithSettings = z.output<typeof langsmithConfigSchema>;
export type LangfuseSettings = z.output<typeof langfuseConfigSchema>;
