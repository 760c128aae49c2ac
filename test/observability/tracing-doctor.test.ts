/** `fawn doctor` says where traces go, without sending anything or printing a key. */
import { describe, expect, it } from "vitest";
import { renderDoctorReport } from "../../src/cli/doctor/doctor-report.js";
import { tracingSection } from "../../src/cli/doctor/tracing-section.js";
import { tracingConfigSchema } from "../../src/core/config/tracing-schema.js";

describe("fawn doctor: tracing", () => {
  it("says tracing is off and how to turn it on", () => {
    const { text } = renderDoctorReport([tracingSection(tracingConfigSchema.parse({}))]);
    expect(text).toContain("LANGSMITH_TRACING");
  });

  it("lists each integration on, with no key in sight", () => {
    const settings = tracingConfigSchema.parse({
      otlp_endpoint: "http://collector:4318/v1/traces",
      otlp_headers: { authorization: "Bearer collector-token" },
      langsmith: { enabled: true, api_key: "ls-secret-key" },
      langfuse: { enabled: true, public_key: "pk-lf-1", secret_key: "sk-lf-secret" },
    });
    const { text, failed } = renderDoctorReport([tracingSection(settings)]);
    expect(failed).toBe(false);
    expect(text).toContain("http://collector:4318/v1/traces");
    expect(text).toContain("project fawn");
    expect(text).toContain("https://cloud.langfuse.com");
    for (const secret of ["collector-token", "ls-secret-key", "sk-lf-secret"]) {
      expect(text).not.toContain(secret);
    }
  });
});
