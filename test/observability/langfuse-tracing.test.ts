/**
 * Langfuse: with `tracing.langfuse` (or LANGFUSE_TRACING and the key pair) a run's trace goes to
 * Langfuse through its LangChain callback handler, exported as OTLP/HTTP to
 * `<LANGFUSE_BASE_URL>/api/public/otel/v1/traces`. A local fake records what arrives: the run's
 * generations and tool observations, the thread as its session, Basic auth with the key pair —
 * and no key in any log line.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  jsonBody,
  type RecordingEndpoint,
  startRecordingEndpoint,
} from "./helpers/recording-endpoint.js";
import { startTracedFawn, type TracedFawn } from "./helpers/traced-fawn.js";

const PUBLIC_KEY = "pk-lf-fake-public-0123";
const SECRET_KEY = "sk-lf-fake-secret-4567";

let traced: TracedFawn | undefined;
let langfuse: RecordingEndpoint | undefined;

afterEach(async () => {
  await traced?.close();
  await langfuse?.close();
  traced = undefined;
  langfuse = undefined;
});

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
}

/** Every span in the OTLP/HTTP JSON exports the fake received. */
function exportedSpans(bodies: readonly unknown[]): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const body of bodies) {
    const resourceSpans =
      (body as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> })
        .resourceSpans ?? [];
    for (const resource of resourceSpans)
      for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
  }
  return spans;
}

function attribute(span: OtlpSpan | undefined, key: string): string | undefined {
  const value = span?.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : String(value.intValue));
}

describe("Langfuse tracing", () => {
  it("sends the run's trace with generations, tool calls and the sub-agent, authenticated by the key pair", async () => {
    langfuse = await startRecordingEndpoint();
    traced = await startTracedFawn(
      {},
      {},
      {
        LANGFUSE_TRACING: "true",
        LANGFUSE_PUBLIC_KEY: PUBLIC_KEY,
        LANGFUSE_SECRET_KEY: SECRET_KEY,
        LANGFUSE_BASE_URL: langfuse.url,
      },
    );
    const { runId, threadId } = await traced.runResearch("langfuse-thread");
    const logLines = traced.logLines;
    // Closing the Fawn flushes the Langfuse processor.
    await traced.close();
    traced = undefined;

    const exports = langfuse.requests.filter(
      (request) => request.path === "/api/public/otel/v1/traces",
    );
    expect(exports.length).toBeGreaterThan(0);
    const basic = `Basic ${Buffer.from(`${PUBLIC_KEY}:${SECRET_KEY}`).toString("base64")}`;
    for (const request of exports) expect(request.headers.authorization).toBe(basic);

    const spans = exportedSpans(exports.map((request) => jsonBody(request)));
    const root = spans.find((span) => !span.parentSpanId);
    expect(root?.name).toBe("lead_agent");
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root?.traceId]));
    // The thread is the trace's session; the run's ids are its metadata.
    expect(attribute(root, "session.id") ?? attribute(root, "langfuse.session.id")).toBe(threadId);
    expect(JSON.stringify(root?.attributes)).toContain(runId);

    const typeOf = (span: OtlpSpan) => attribute(span, "langfuse.observation.type");
    expect(spans.filter((span) => typeOf(span) === "generation").length).toBeGreaterThanOrEqual(4);
    const tools = spans.filter((span) => typeOf(span) === "tool").map((span) => span.name);
    expect(tools).toEqual(expect.arrayContaining(["write_file", "task"]));
    // The sub-agent's graph hangs under the task call.
    const task = spans.find((span) => typeOf(span) === "tool" && span.name === "task");
    expect(spans.some((span) => span.parentSpanId === task?.spanId)).toBe(true);

    // Neither key reaches a log line; the secret is only ever in the Authorization header.
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(SECRET_KEY);
    expect(logLines.join("\n")).not.toContain(PUBLIC_KEY);
    expect(
      langfuse.requests.map((request) => request.body.toString("utf8")).join("\n"),
    ).not.toContain(SECRET_KEY);
  });

  it("is refused at start-up when enabled without its keys", async () => {
    await expect(startTracedFawn({ langfuse: { enabled: true } })).rejects.toThrow(
      /LANGFUSE_SECRET_KEY/,
    );
  });
});
