/**
 * OpenTelemetry spans of a whole run through createFawn: a lead agent that calls a tool and a
 * sub-agent (which calls a tool of its own). The span tree is read from the SDK's in-memory
 * exporter, and the same spans reach a local OTLP/HTTP receiver at `tracing.otlp_endpoint`.
 */
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import {
  jsonBody,
  type RecordingEndpoint,
  startRecordingEndpoint,
} from "./helpers/recording-endpoint.js";
import { startTracedFawn, type TracedFawn } from "./helpers/traced-fawn.js";

let traced: TracedFawn | undefined;
let collector: RecordingEndpoint | undefined;

afterEach(async () => {
  await traced?.close();
  await collector?.close();
  traced = undefined;
  collector = undefined;
});

function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  const [span] = found;
  if (!span) throw new Error(`no span ${name}`);
  return span;
}

describe("OpenTelemetry run spans", () => {
  it("exports the run's span tree: admission, agent, model and tool calls, sub-agent, finalizer", async () => {
    collector = await startRecordingEndpoint();
    const exporter = new InMemorySpanExporter();
    traced = await startTracedFawn(
      {
        otlp_endpoint: `${collector.url}/v1/traces`,
        otlp_headers: { "x-collector-key": "collector-secret-1" },
        service_name: "fawn-under-test",
      },
      { spanProcessors: [new SimpleSpanProcessor(exporter)] },
    );
    const fawn = traced;
    // Tracing adds no blocking IO to the run's path.
    const { runId, threadId } = await withBlockingIoGate(() => fawn.runResearch("otel-thread"));
    const spans = exporter.getFinishedSpans();

    // One trace, rooted at the run.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const run = only(spans, "fawn.run");
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      "fawn.run_id": runId,
      "fawn.thread_id": threadId,
      "fawn.graph_id": "lead_agent",
      "fawn.run.status": "success",
    });
    const runChildren = childrenOf(spans, run).map((span) => span.name);
    expect(runChildren).toEqual(
      expect.arrayContaining([
        "fawn.run.admission",
        "invoke_agent lead_agent",
        "fawn.run.finalize",
      ]),
    );

    // The lead agent: its model calls (named by the model, with token usage) and tool calls.
    const lead = only(spans, "invoke_agent lead_agent");
    const leadSpans = descendantsOf(spans, lead);
    const leadModelCalls = leadSpans.filter(
      (span) =>
        span.attributes["gen_ai.operation.name"] === "chat" &&
        span.attributes["fawn.caller"] === "lead_agent",
    );
    expect(leadModelCalls.length).toBe(2);
    for (const call of leadModelCalls) {
      // The scripted model names itself in its answers: the span is named after that.
      expect(call.attributes["gen_ai.response.model"]).toEqual(expect.stringContaining("scripted"));
      expect(call.name).toBe(`chat ${String(call.attributes["gen_ai.response.model"])}`);
      expect(call.attributes["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      expect(call.attributes["gen_ai.usage.output_tokens"]).toEqual(expect.any(Number));
    }
    const writeFile = leadSpans.find(
      (span) =>
        span.name === "execute_tool write_file" &&
        span.attributes["fawn.caller"] !== "subagent:general-purpose",
    );
    expect(writeFile?.attributes).toMatchObject({
      "gen_ai.tool.name": "write_file",
      "fawn.tool.status": "success",
    });
    const taskCall = only(spans, "execute_tool task");
    expect(descendantsOf(spans, lead)).toContain(taskCall);

    // The sub-agent is a child of its task call, with its own model and tool calls under it.
    const subagent = only(spans, "invoke_agent subagent:general-purpose");
    expect(subagent.parentSpanContext?.spanId).toBe(taskCall.spanContext().spanId);
    const subSpans = descendantsOf(spans, subagent);
    expect(
      subSpans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat").length,
    ).toBe(2);
    expect(subSpans.map((span) => span.name)).toContain("execute_tool write_file");

    // Finalizer stages, each a span under fawn.run.finalize, in the protocol's order.
    const finalize = only(spans, "fawn.run.finalize");
    const stages = childrenOf(spans, finalize)
      .sort((a, b) => hrMillis(a.startTime) - hrMillis(b.startTime))
      .map((span) => span.name);
    expect(stages).toEqual(
      expect.arrayContaining([
        "fawn.finalizer.terminal_status",
        "fawn.finalizer.terminal_event",
        "fawn.finalizer.end",
      ]),
    );
    expect(stages.indexOf("fawn.finalizer.terminal_status")).toBeLessThan(
      stages.indexOf("fawn.finalizer.end"),
    );

    // No user content by default: the prompt and file contents appear on no span.
    const attributeText = JSON.stringify(spans.map((span) => span.attributes));
    expect(attributeText).not.toContain("Research the topic");
    expect(attributeText).not.toContain("lead notes");

    // Closing flushes the OTLP exporter: the collector got the same spans, with its header.
    await traced.close();
    traced = undefined;
    const exports = collector.requests.filter((request) => request.path === "/v1/traces");
    expect(exports.length).toBeGreaterThan(0);
    expect(exports[0]?.headers["x-collector-key"]).toBe("collector-secret-1");
    const exportedNames = exports.flatMap((request) => otlpSpanNames(jsonBody(request)));
    expect(exportedNames).toEqual(
      expect.arrayContaining([
        "fawn.run",
        "invoke_agent subagent:general-purpose",
        "execute_tool task",
      ]),
    );
    expect(JSON.stringify(exports.map((request) => jsonBody(request)))).toContain(
      "fawn-under-test",
    );
  });

  it("puts message and tool content on spans only with capture_content", async () => {
    const exporter = new InMemorySpanExporter();
    traced = await startTracedFawn(
      { capture_content: true },
      { spanProcessors: [new SimpleSpanProcessor(exporter)] },
    );
    await traced.runResearch("capture-thread");
    const spans = exporter.getFinishedSpans();
    const chat = spans.find(
      (span) =>
        span.attributes["fawn.caller"] === "lead_agent" &&
        span.attributes["gen_ai.operation.name"] === "chat",
    );
    expect(String(chat?.attributes["gen_ai.input.messages"])).toContain("Research the topic");
    const tool = spans.find((span) => span.name === "execute_tool write_file");
    expect(String(tool?.attributes["gen_ai.tool.call.arguments"])).toContain("notes");
  });
});

function descendantsOf(spans: readonly ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  const out: ReadableSpan[] = [];
  const queue = [root];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const children = childrenOf(spans, next);
    out.push(...children);
    queue.push(...children);
  }
  return out;
}

function hrMillis(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

/** Span names in an OTLP/HTTP JSON export body. */
function otlpSpanNames(body: unknown): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      if (typeof record.name === "string" && typeof record.spanId === "string")
        names.push(record.name);
      Object.values(record).forEach(visit);
    }
  };
  visit(body);
  return names;
}
