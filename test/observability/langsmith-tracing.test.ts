/**
 * LangSmith: with `tracing.langsmith` (or the reference's LANGSMITH_* variables) a run's trace
 * goes to the LangSmith endpoint through LangChain's own tracer. A local fake of the endpoint
 * records what arrives: the run's graph, its model and tool runs, the sub-agent under its task
 * call, the API key in its header — and never in a log line.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  jsonBody,
  type RecordedRequest,
  type RecordingEndpoint,
  startRecordingEndpoint,
} from "./helpers/recording-endpoint.js";
import { startTracedFawn, type TracedFawn } from "./helpers/traced-fawn.js";

const API_KEY = "lsv2_pt_fake-langsmith-key-0123456789";

let traced: TracedFawn | undefined;
let langsmith: RecordingEndpoint | undefined;

afterEach(async () => {
  await traced?.close();
  await langsmith?.close();
  traced = undefined;
  langsmith = undefined;
});

interface LangsmithRun {
  id: string;
  name: string;
  run_type: string;
  trace_id?: string;
  parent_run_id?: string;
  session_name?: string;
  extra?: { metadata?: Record<string, unknown> };
}

/** The fake's answer: batch ingestion as JSON (`/runs/batch`) rather than multipart. */
function langsmithAnswer(request: RecordedRequest) {
  if (request.path.startsWith("/info")) {
    return {
      status: 200,
      json: { version: "0.0.0", batch_ingest_config: { use_multipart_endpoint: false } },
    };
  }
  return { status: 200, json: {} };
}

/** Every run the fake received, creations and updates merged by id. */
function receivedRuns(requests: readonly RecordedRequest[]): Map<string, LangsmithRun> {
  const runs = new Map<string, LangsmithRun>();
  for (const request of requests) {
    if (request.method !== "POST" || !request.path.startsWith("/runs")) continue;
    const body = jsonBody(request) as { post?: LangsmithRun[]; patch?: LangsmithRun[] };
    for (const run of [...(body.post ?? []), ...(body.patch ?? [])]) {
      runs.set(run.id, { ...runs.get(run.id), ...run });
    }
  }
  return runs;
}

describe("LangSmith tracing", () => {
  it("sends the run's trace with its model, tool and sub-agent runs, keyed by header only", async () => {
    langsmith = await startRecordingEndpoint(langsmithAnswer);
    traced = await startTracedFawn(
      {},
      {},
      {
        LANGSMITH_TRACING: "true",
        LANGSMITH_API_KEY: API_KEY,
        LANGSMITH_PROJECT: "fawn-tests",
        LANGSMITH_ENDPOINT: langsmith.url,
      },
    );
    expect(traced.fawn.config.tracing.langsmith).toMatchObject({
      enabled: true,
      project: "fawn-tests",
    });
    const { runId, threadId } = await traced.runResearch("langsmith-thread");
    // Closing the Fawn sends what the client still batches.
    const logLines = traced.logLines;
    await traced.close();
    traced = undefined;

    const ingests = langsmith.requests.filter((request) => request.path.startsWith("/runs"));
    expect(ingests.length).toBeGreaterThan(0);
    for (const request of ingests) expect(request.headers["x-api-key"]).toBe(API_KEY);

    const runs = [...receivedRuns(langsmith.requests).values()];
    const root = runs.find((run) => run.parent_run_id === undefined && run.name === "lead_agent");
    expect(root?.run_type).toBe("chain");
    expect(root?.session_name).toBe("fawn-tests");
    expect(root?.extra?.metadata).toMatchObject({ thread_id: threadId, run_id: runId });
    // One trace: every run of it carries the root's trace id.
    expect(new Set(runs.map((run) => run.trace_id))).toEqual(new Set([root?.id]));
    expect(runs.filter((run) => run.run_type === "llm").length).toBeGreaterThanOrEqual(4);
    const tools = runs.filter((run) => run.run_type === "tool").map((run) => run.name);
    expect(tools).toEqual(expect.arrayContaining(["write_file", "task"]));
    // The sub-agent's graph is a child of the task call.
    const task = runs.find((run) => run.run_type === "tool" && run.name === "task");
    const subagentRoot = runs.find((run) => run.parent_run_id === task?.id);
    expect(subagentRoot?.run_type).toBe("chain");

    // The key went in a header, never into a log line or a sent body.
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(API_KEY);
    expect(
      langsmith.requests.map((request) => request.body.toString("utf8")).join("\n"),
    ).not.toContain(API_KEY);
  });

  it("files a run under the project its body named (langsmith_tracer.project_name)", async () => {
    langsmith = await startRecordingEndpoint(langsmithAnswer);
    traced = await startTracedFawn({
      langsmith: { enabled: true, api_key: API_KEY, endpoint: langsmith.url },
    });
    await traced.runResearch("project-thread", { langsmithProject: "evals-run" });
    await traced.close();
    traced = undefined;
    const roots = [...receivedRuns(langsmith.requests).values()].filter(
      (run) => run.parent_run_id === undefined,
    );
    expect(roots.map((run) => run.session_name)).toEqual(["evals-run"]);
  });

  it("is refused at start-up when enabled without an API key", async () => {
    await expect(startTracedFawn({ langsmith: { enabled: true } })).rejects.toThrow(
      /LANGSMITH_API_KEY/,
    );
  });
});
