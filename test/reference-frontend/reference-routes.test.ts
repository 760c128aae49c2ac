/**
 * The routes the reference's own web UI calls beside the LangGraph API, over plain HTTP and the
 * unmodified SDK, under `auth.mode: local` with two users: the reference's request and response
 * shapes, 401 without credentials, and nobody reading another user's thread data or tasks.
 * The model is a scripted one (real runtime, real tools), so no key and no network.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/reference-server.js";

let h: ReferenceServer;
let aliceThread = "";

beforeAll(async () => {
  h = await startReferenceServer({
    // The SQL stores: run rows carry their token totals through the row codec.
    database: "sqlite",
    users: ["alice", "bob"],
    config: (home) => ({
      auth: { mode: "local", allow_registration: true },
      agents_api: { enabled: true },
      models: [
        {
          name: "scripted",
          use: "scripted",
          model: "s",
          context_window: 1000,
          script: join(home, "script.json"),
        },
      ],
    }),
  });
  await writeFile(
    join(h.home, "script.json"),
    JSON.stringify([{ turns: [{ content: "Paris is the capital of France." }] }]),
  );
  const alice = h.sdk("alice");
  const thread = await alice.threads.create();
  aliceThread = thread.thread_id;
  await alice.runs.wait(aliceThread, "lead_agent", {
    input: { messages: [{ role: "user", content: "What is the capital of France?" }] },
  });
});
afterAll(async () => {
  await h?.close();
});

const CONVERSATION = [
  { role: "user", content: "What is the capital of France?" },
  { role: "assistant", content: "Paris is the capital of France." },
];

describe("feature flags, channels and integrations", () => {
  it("reports what this server has, in the reference's shapes", async () => {
    expect(await h.call("alice", "GET", "/features")).toMatchObject({
      status: 200,
      json: {
        agents_api: { enabled: true },
        browser_control: { enabled: false },
        mcp_tasks: { enabled: false },
      },
    });
    expect((await h.call("bob", "GET", "/channels/providers")).json).toEqual({
      enabled: false,
      providers: [],
    });
    expect((await h.call("bob", "GET", "/channels/connections")).json).toEqual({
      connections: [],
    });
    const lark = await h.call("alice", "GET", "/integrations/lark/status");
    expect(lark.status).toBe(200);
    expect(lark.json).toMatchObject({
      installed: false,
      app_configured: false,
      installed_skills: [],
      enabled_skills: [],
      cli: { available: false, path: null, version: null },
      auth: { status: "unavailable", user: null, verified: false },
      sandbox_runtime_mode: "none",
      sandbox_runtime_ready: false,
    });
  });

  it("answers 401 without credentials on every route", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/features"],
      ["GET", "/channels/providers"],
      ["GET", "/channels/connections"],
      ["GET", "/integrations/lark/status"],
      ["GET", "/suggestions/config"],
      ["POST", `/threads/${aliceThread}/suggestions`, { messages: CONVERSATION }],
      ["POST", "/input-polish", { text: "draft" }],
      ["GET", `/threads/${aliceThread}/token-usage`],
      ["GET", "/scheduled-tasks"],
      ["GET", `/threads/${aliceThread}/scheduled-tasks`],
    ];
    for (const [method, path, body] of routes) {
      const answer = await h.call(null, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.json).toMatchObject({ code: "unauthorized", detail: expect.any(String) });
    }
  });
});

describe("follow-up suggestions", () => {
  it("reads the configuration and suggests follow-ups on the caller's thread", async () => {
    expect((await h.call("alice", "GET", "/suggestions/config")).json).toEqual({
      enabled: true,
      max_suggestions: 3,
    });
    const three = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
      n: 3,
      model_name: "scripted",
    });
    expect(three.status).toBe(200);
    const { suggestions } = three.json as { suggestions: string[] };
    expect(suggestions).toHaveLength(3);
    for (const question of suggestions) expect(question).toMatch(/\S/);
    // `n` is capped by suggestions.max_suggestions (3), and honoured below it.
    const one = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
      n: 1,
    });
    expect((one.json as { suggestions: string[] }).suggestions).toHaveLength(1);
    const capped = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
      n: 5,
    });
    expect((capped.json as { suggestions: string[] }).suggestions).toHaveLength(3);
    const nothing = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: [],
    });
    expect(nothing.json).toEqual({ suggestions: [] });
  });

  it("hides another user's thread and rejects bad requests with what was wrong", async () => {
    const foreign = await h.call("bob", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
    });
    expect(foreign.status).toBe(404);
    const unknownModel = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
      model_name: "no-such-model",
    });
    expect(unknownModel).toMatchObject({
      status: 422,
      json: { code: "validation_failed", detail: expect.stringContaining("no-such-model") },
    });
    const tooMany = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {
      messages: CONVERSATION,
      n: 9,
    });
    expect(tooMany).toMatchObject({
      status: 422,
      json: { detail: expect.stringContaining("body.n") },
    });
    const noMessages = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, {});
    expect(noMessages.status).toBe(422);
    const notJson = await h.call("alice", "POST", `/threads/${aliceThread}/suggestions`, "{");
    expect(notJson.status).toBe(400);
  });
});

describe("input polish", () => {
  it("rewrites a draft without starting a run", async () => {
    const before = await h.sdk("alice").threads.search({ limit: 100 });
    const polished = await h.call("alice", "POST", "/input-polish", {
      text: "  make   a chart of the sales  ",
      locale: "en-US",
      thread_id: aliceThread,
    });
    expect(polished).toMatchObject({
      status: 200,
      json: { rewritten_text: "Make a chart of the sales.", changed: true },
    });
    const unchanged = await h.call("bob", "POST", "/input-polish", { text: "Already fine." });
    expect(unchanged.json).toEqual({ rewritten_text: "Already fine.", changed: false });
    expect(await h.sdk("alice").threads.search({ limit: 100 })).toHaveLength(before.length);
  });

  it("refuses an empty or too long draft with a 400", async () => {
    const empty = await h.call("alice", "POST", "/input-polish", { text: "   " });
    expect(empty).toMatchObject({ status: 400, json: { code: "bad_request" } });
    const long = await h.call("alice", "POST", "/input-polish", { text: "x".repeat(4001) });
    expect(long).toMatchObject({
      status: 400,
      json: { detail: expect.stringContaining("4000 characters") },
    });
    const missing = await h.call("alice", "POST", "/input-polish", { locale: "en" });
    expect(missing.status).toBe(422);
  });
});

describe("thread token usage", () => {
  it("totals the thread's runs by model and caller, with the context gauge", async () => {
    const answer = await h.call("alice", "GET", `/threads/${aliceThread}/token-usage`);
    expect(answer.status).toBe(200);
    const usage = answer.json as {
      thread_id: string;
      total_tokens: number;
      total_input_tokens: number;
      total_output_tokens: number;
      total_runs: number;
      by_model: Record<string, { tokens: number; runs: number }>;
      by_caller: { lead_agent: number; subagent: number; middleware: number };
      context_usage: { token_count: number; max_context_tokens: number; percentage: number };
    };
    expect(usage.thread_id).toBe(aliceThread);
    expect(usage.total_runs).toBe(1);
    expect(usage.total_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.total_input_tokens + usage.total_output_tokens);
    const models = Object.values(usage.by_model);
    expect(models.reduce((sum, m) => sum + m.tokens, 0)).toBe(usage.total_tokens);
    expect(models.every((m) => m.runs === 1)).toBe(true);
    expect(usage.by_caller.lead_agent).toBeGreaterThan(0);
    expect(usage.by_caller.lead_agent + usage.by_caller.subagent + usage.by_caller.middleware).toBe(
      usage.total_tokens,
    );
    expect(usage.context_usage.max_context_tokens).toBe(1000);
    expect(usage.context_usage.token_count).toBeGreaterThan(0);
    expect(usage.context_usage.percentage).toBe(
      Math.round((usage.context_usage.token_count / 1000) * 1000) / 10,
    );
    const active = await h.call(
      "alice",
      "GET",
      `/threads/${aliceThread}/token-usage?include_active=true`,
    );
    expect((active.json as { total_runs: number }).total_runs).toBe(1);
  });

  it("gives a thread without runs zero totals, and hides another user's thread", async () => {
    const fresh = await h.sdk("bob").threads.create();
    const empty = await h.call("bob", "GET", `/threads/${fresh.thread_id}/token-usage`);
    expect(empty.json).toEqual({
      thread_id: fresh.thread_id,
      total_tokens: 0,
      total_input_tokens: 0,
      total_output_tokens: 0,
      total_runs: 0,
      by_model: {},
      by_caller: { lead_agent: 0, subagent: 0, middleware: 0 },
      context_usage: { token_count: 0, max_context_tokens: 1000, percentage: 0 },
    });
    expect((await h.call("bob", "GET", `/threads/${aliceThread}/token-usage`)).status).toBe(404);
    expect(
      (await h.call("alice", "GET", `/threads/${aliceThread}/token-usage?include_active=maybe`))
        .status,
    ).toBe(422);
  });
});

describe("scheduled tasks", () => {
  it("lists the caller's crons in the reference's task shape, newest first", async () => {
    const alice = h.sdk("alice");
    const bound = await alice.crons.createForThread(aliceThread, "lead_agent", {
      schedule: "0 9 1 1 *",
      input: { messages: [{ role: "user", content: "Send the yearly report" }] },
      metadata: { title: "Yearly report" },
    });
    const stateless = await alice.crons.create("lead_agent", {
      schedule: "30 8 * * 1",
      timezone: "Europe/Paris",
      input: { messages: [{ role: "user", content: "Summarize last week's news\nBriefly." }] },
    });
    const tasks = await h.call("alice", "GET", "/scheduled-tasks");
    expect(tasks.status).toBe(200);
    expect(tasks.json).toEqual([
      {
        id: stateless.cron_id,
        thread_id: null,
        context_mode: "fresh_thread_per_run",
        title: "Summarize last week's news",
        prompt: "Summarize last week's news\nBriefly.",
        schedule_type: "cron",
        schedule_spec: { cron: "30 8 * * 1" },
        timezone: "Europe/Paris",
        status: "enabled",
        next_run_at: expect.any(String),
        last_run_at: null,
        last_run_id: null,
        last_thread_id: null,
        last_error: null,
        run_count: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      expect.objectContaining({
        id: bound.cron_id,
        thread_id: aliceThread,
        context_mode: "reuse_thread",
        title: "Yearly report",
        prompt: "Send the yearly report",
        schedule_spec: { cron: "0 9 1 1 *" },
        timezone: "UTC",
        status: "enabled",
      }),
    ]);
    await alice.crons.update(bound.cron_id, { enabled: false });
    const forThread = await h.call("alice", "GET", `/threads/${aliceThread}/scheduled-tasks`);
    expect(forThread.json).toEqual([
      expect.objectContaining({ id: bound.cron_id, status: "paused" }),
    ]);

    expect((await h.call("bob", "GET", "/scheduled-tasks")).json).toEqual([]);
    expect((await h.call("bob", "GET", `/threads/${aliceThread}/scheduled-tasks`)).status).toBe(
      404,
    );
  });
});

describe("SSE responses", () => {
  it("ask proxies not to transform or buffer the stream", async () => {
    const run = await h.call("alice", "POST", `/threads/${aliceThread}/runs/stream`, {
      assistant_id: "lead_agent",
      input: { messages: [{ role: "user", content: "Again?" }] },
    });
    expect(run.status).toBe(200);
    expect(run.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(run.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(run.headers.get("x-accel-buffering")).toBe("no");
  });
});
