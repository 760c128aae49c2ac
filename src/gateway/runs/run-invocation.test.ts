import { describe, expect, it } from "vitest";
import { emptyTokenTotals, type RunRow } from "../../ports/run-types.js";
import { buildInvocation, graphStreamModes } from "./run-invocation.js";
import { toApiRun } from "./run-response.js";
import { runCreateBody } from "./run-schemas.js";

const ctx = { threadId: "t1", userId: "u1", maxRecursionLimit: 50 };

describe("run invocation", () => {
  it("maps API stream modes to graph modes", () => {
    expect(graphStreamModes(undefined)).toEqual(["values"]);
    expect(graphStreamModes("messages-tuple")).toEqual(["messages"]);
    expect(graphStreamModes(["values", "messages-tuple", "values"])).toEqual([
      "values",
      "messages",
    ]);
    expect(graphStreamModes([])).toEqual(["values"]);
  });

  it("builds LangGraph.js options and stamps server-owned keys", () => {
    const body = runCreateBody.parse({
      input: { messages: [] },
      config: {
        recursion_limit: 500,
        tags: ["a"],
        configurable: { model_name: "m", thread_id: "evil", user_id: "evil", __secret: 1 },
      },
      context: { mode: "fast", model_name: "ignored" },
      checkpoint: { checkpoint_id: "c1", checkpoint_ns: "" },
      checkpoint_during: false,
      interrupt_before: ["x"],
      webhook: "https://example.com/hook",
    });
    const invocation = buildInvocation(body, ctx);
    expect(invocation.config).toEqual({
      configurable: {
        mode: "fast",
        model_name: "m",
        user_id: "u1",
        checkpoint_id: "c1",
        checkpoint_ns: "",
      },
      recursionLimit: 50,
      tags: ["a"],
      durability: "exit",
      context: { mode: "fast", model_name: "ignored", user_id: "u1" },
    });
    expect(invocation.interrupt_before).toEqual(["x"]);
    expect(invocation.webhook).toBe("https://example.com/hook");
    expect(invocation.stream_mode).toEqual(["values"]);
  });

  it("files the run's LangSmith trace under langsmith_tracer.project_name", () => {
    const body = runCreateBody.parse({
      langsmith_tracer: { project_name: "evals", example_id: "e" },
    });
    expect(buildInvocation(body, ctx).langsmith_project).toBe("evals");
    expect(buildInvocation(runCreateBody.parse({}), ctx).langsmith_project).toBeUndefined();
  });

  it("keeps the client's user_id only where the caller may name it", () => {
    const body = runCreateBody.parse({
      config: { configurable: { user_id: "start_user_id", thread_id: "evil" } },
    });
    const named = buildInvocation(body, { ...ctx, clientNamesUser: true }).config?.configurable;
    expect(named).toEqual({ user_id: "start_user_id" });
    expect(buildInvocation(body, ctx).config?.configurable).toEqual({ user_id: "u1" });
    const unnamed = runCreateBody.parse({ input: null });
    expect(
      buildInvocation(unnamed, { ...ctx, clientNamesUser: true }).config?.configurable,
    ).toEqual({ user_id: "u1" });
  });

  it("maps the API's messages modes to the run's", () => {
    const body = runCreateBody.parse({ stream_mode: ["messages", "messages-tuple", "events"] });
    expect(buildInvocation(body, ctx).stream_mode).toEqual([
      "messages-partial",
      "messages",
      "events",
    ]);
  });

  it("keeps a command instead of input", () => {
    const invocation = buildInvocation(runCreateBody.parse({ command: { resume: "yes" } }), ctx);
    expect(invocation.command).toEqual({ resume: "yes" });
    expect(invocation.input).toBeNull();
  });

  it("refuses unknown fields and unsupported modes", () => {
    expect(runCreateBody.safeParse({ nope: 1 }).success).toBe(false);
    expect(runCreateBody.safeParse({ stream_mode: "tokens" }).success).toBe(false);
    expect(runCreateBody.safeParse({ webhook: "file:///etc/passwd" }).success).toBe(false);
  });

  it("never takes the host-only origin or artifact receipts from a client body", () => {
    const receipt = {
      filename: "a.txt",
      path: "/mnt/user-data/uploads/a.txt",
      sha256: "0",
      size: 1,
    };
    const hostOnly = { origin: { kind: "extension", namespace: "x" }, artifact_imports: [receipt] };
    expect(runCreateBody.safeParse({ input: {}, ...hostOnly }).success).toBe(false);
    // Even a body that carried them past the schema builds an invocation without them.
    const body = { ...runCreateBody.parse({ input: { messages: [] } }), ...hostOnly };
    const invocation = buildInvocation(body, ctx);
    expect(invocation).not.toHaveProperty("origin");
    expect(invocation).not.toHaveProperty("artifact_imports");
  });

  it("hides the host-only fields from the API run", () => {
    const receipt = {
      filename: "a.txt",
      path: "/mnt/user-data/uploads/a.txt",
      sha256: "0",
      size: 1,
    };
    const kwargs = {
      input: { messages: [] },
      origin: { kind: "extension" as const, namespace: "x" },
      artifact_imports: [receipt],
    };
    const shown = toApiRun({ ...sampleRow(), kwargs });
    expect(shown.kwargs).toEqual({ input: { messages: [] } });
  });
});

function sampleRow(): RunRow {
  return {
    run_id: "r1",
    thread_id: "t1",
    assistant_id: null,
    user_id: "u1",
    status: "success",
    operation_kind: "run",
    idempotency_key: null,
    model_name: null,
    multitask_strategy: "reject",
    on_disconnect: "continue",
    metadata: {},
    kwargs: {},
    error: null,
    stop_reason: null,
    follow_up_to_run_id: null,
    queued: false,
    owner_worker_id: null,
    lease_expires_at: null,
    cancel_action: null,
    cancel_requested_at: null,
    evidence_seal_state: null,
    evidence_seal_error: null,
    evidence_upper_seq: null,
    evidence_event_count: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    message_count: 0,
    first_human_message: null,
    last_ai_message: null,
    ...emptyTokenTotals(),
  };
}
