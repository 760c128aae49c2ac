/**
 * The same routes with auth off (every request is the default user) and the offline demo model
 * (no `models:`): each still answers in the reference's shape — the demo model's suggestions and
 * polish are well-formed — and the `suggestions` / `input_polish` / `agents_api` switches show.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/reference-server.js";

describe("with auth off and the demo model", () => {
  let h: ReferenceServer;
  beforeAll(async () => {
    h = await startReferenceServer({ config: () => ({ crons: { enabled: false } }) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("serves every route to the default user", async () => {
    expect((await h.call(null, "GET", "/features")).json).toEqual({
      agents_api: { enabled: false },
      browser_control: { enabled: false },
      mcp_tasks: { enabled: false },
    });
    expect((await h.call(null, "GET", "/channels/providers")).status).toBe(200);
    expect((await h.call(null, "GET", "/channels/connections")).status).toBe(200);
    expect((await h.call(null, "GET", "/integrations/lark/status")).status).toBe(200);
    // No cron store on this server: no tasks, not an error.
    expect((await h.call(null, "GET", "/scheduled-tasks")).json).toEqual([]);

    const thread = await h.sdk(null).threads.create();
    const suggested = await h.call(null, "POST", `/threads/${thread.thread_id}/suggestions`, {
      messages: [
        { role: "user", content: "Plan a trip to Lisbon" },
        { role: "assistant", content: "Here is a three-day plan." },
      ],
    });
    expect(suggested.status).toBe(200);
    const { suggestions } = suggested.json as { suggestions: unknown[] };
    expect(suggestions).toHaveLength(3);
    expect(suggestions.every((s) => typeof s === "string" && s.length > 0)).toBe(true);

    const polished = await h.call(null, "POST", "/input-polish", { text: "plan a trip" });
    expect(polished.json).toEqual({ rewritten_text: "Plan a trip.", changed: true });

    const usage = await h.call(null, "GET", `/threads/${thread.thread_id}/token-usage`);
    expect(usage.json).toMatchObject({
      thread_id: thread.thread_id,
      total_runs: 0,
      context_usage: { token_count: 0, max_context_tokens: null, percentage: null },
    });
    expect((await h.call(null, "GET", "/threads/no-such-thread/token-usage")).status).toBe(404);
    expect((await h.call(null, "GET", "/threads/no-such-thread/scheduled-tasks")).status).toBe(404);
  });
});

describe("with suggestions and input polish switched off", () => {
  let h: ReferenceServer;
  beforeAll(async () => {
    h = await startReferenceServer({
      config: () => ({
        agents_api: { enabled: true },
        suggestions: { enabled: false, max_suggestions: 2 },
        input_polish: { enabled: false },
      }),
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reports the switches and answers as the reference does", async () => {
    expect((await h.call(null, "GET", "/features")).json).toMatchObject({
      agents_api: { enabled: true },
    });
    expect((await h.call(null, "GET", "/suggestions/config")).json).toEqual({
      enabled: false,
      max_suggestions: 2,
    });
    const thread = await h.sdk(null).threads.create();
    const suggested = await h.call(null, "POST", `/threads/${thread.thread_id}/suggestions`, {
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(suggested).toMatchObject({ status: 200, json: { suggestions: [] } });
    const polish = await h.call(null, "POST", "/input-polish", { text: "hello" });
    expect(polish).toMatchObject({
      status: 404,
      json: { code: "not_found", detail: expect.stringContaining("input_polish.enabled") },
    });
  });
});
