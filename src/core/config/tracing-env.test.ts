import { describe, expect, it } from "vitest";
import { parseConfig } from "./load-config.js";

describe("tracing environment variables", () => {
  it("read the reference's LangSmith and Langfuse variables and OpenTelemetry's", () => {
    const { config } = parseConfig(
      { tracing: { langsmith: { project: "from-file" }, sample_ratio: 0.5 } },
      {
        env: {
          LANGCHAIN_TRACING_V2: "true",
          LANGSMITH_API_KEY: "ls-key",
          LANGSMITH_PROJECT: "from-env",
          LANGFUSE_TRACING: "1",
          LANGFUSE_PUBLIC_KEY: "pk",
          LANGFUSE_SECRET_KEY: "sk",
          LANGFUSE_HOST: "http://langfuse.local:3000",
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
          OTEL_SERVICE_NAME: "fawn-prod",
        },
      },
    );
    expect(config.tracing).toMatchObject({
      otlp_endpoint: "http://collector:4318/v1/traces",
      service_name: "fawn-prod",
      sample_ratio: 0.5,
      langsmith: { enabled: true, api_key: "ls-key", project: "from-env" },
      langfuse: {
        enabled: true,
        public_key: "pk",
        secret_key: "sk",
        host: "http://langfuse.local:3000",
      },
    });
  });

  it("leave tracing off when none is set, and a false flag turns a file's switch off", () => {
    expect(parseConfig({}, { env: {} }).config.tracing.langsmith.enabled).toBe(false);
    const { config } = parseConfig(
      { tracing: { langsmith: { enabled: true, api_key: "k" } } },
      { env: { LANGSMITH_TRACING: "false" } },
    );
    expect(config.tracing.langsmith.enabled).toBe(false);
  });

  it("name the missing key when an integration is enabled without it", () => {
    expect(() => parseConfig({}, { env: { LANGFUSE_TRACING: "true" } })).toThrow(
      /LANGFUSE_PUBLIC_KEY.*LANGFUSE_SECRET_KEY/,
    );
  });
});
