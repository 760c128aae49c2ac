/**
 * The cost of tracing when it is off, and sampling: with nothing configured there is no
 * `RunTracing` (a run adds no callback handler); a run the sampler drops gets no trace.
 */
import { type AddressInfo, createServer, type Socket } from "node:net";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { createTracingHost } from "../../src/app/tracing/run-tracing-host.js";
import { tracingConfigSchema } from "../../src/core/config/tracing-schema.js";
import { createLogger } from "../../src/core/logger.js";
import type { TracedRun } from "../../src/ports/run-tracing.js";

const logger = createLogger({ level: "silent" });
const run: TracedRun = {
  runId: "run-1",
  threadId: "thread-1",
  userId: "user-1",
  assistantId: null,
  graphId: "lead_agent",
  admittedAt: new Date().toISOString(),
};

describe("tracing host", () => {
  it("is null with everything off", async () => {
    const host = createTracingHost(tracingConfigSchema.parse({}), { logger });
    expect(host.tracing).toBeNull();
    expect(host.enabled).toEqual([]);
    await host.shutdown();
  });

  it("gives a sampled-out run no trace, and a sampled one the run span", async () => {
    const dropped = createTracingHost(tracingConfigSchema.parse({ sample_ratio: 0 }), {
      logger,
      spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())],
    });
    expect(dropped.tracing?.startRun(run)).toBeNull();
    await dropped.shutdown();

    const exporter = new InMemorySpanExporter();
    const kept = createTracingHost(tracingConfigSchema.parse({}), {
      logger,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const trace = kept.tracing?.startRun(run);
    expect(trace?.callbacks).toHaveLength(1);
    trace?.started();
    await trace?.stage("receipt", async () => undefined);
    trace?.end({ status: "success" });
    trace?.end({ status: "error" });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      "fawn.run.admission",
      "fawn.finalizer.receipt",
      "fawn.run.finalize",
      "fawn.run",
    ]);
    expect(exporter.getFinishedSpans().at(-1)?.attributes["fawn.run.status"]).toBe("success");
    await kept.shutdown();
  });
});

describe("tracing host shutdown", () => {
  it("gives up on a collector that never answers, and says so in the log", async () => {
    // A collector that accepts the connection and never replies.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const warnings: string[] = [];
    const recording = {
      ...logger,
      warn: (_context: Record<string, unknown>, message: string) => warnings.push(message),
    };
    const host = createTracingHost(
      tracingConfigSchema.parse({ otlp_endpoint: `http://127.0.0.1:${port}/v1/traces` }),
      { logger: recording, flushTimeoutMs: 200 },
    );
    const trace = host.tracing?.startRun(run);
    trace?.end({ status: "success" });
    await host.shutdown();
    expect(warnings).toEqual(["trace flush failed"]);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
