/**
 * The state-dependent SDK flows again over SQLite stores and Fawn's SQL checkpoint saver (what
 * `npm start` uses): state reads, history, state updates, interrupt/resume and rollback.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { say } from "./helpers/sdk-stream.js";

let h: GatewayHarness;
let client: Client;

beforeAll(async () => {
  h = await startGatewayHarness({ database: "sqlite" });
  client = h.client;
});
afterAll(async () => {
  await h?.close();
});

async function contents(threadId: string): Promise<string[]> {
  const state = await client.threads.getState<{ messages?: Array<{ content: string }> }>(threadId);
  return (state.values.messages ?? []).map((m) => m.content);
}

describe("SDK over SQLite stores", () => {
  it("streams a run and reads its state and history", async () => {
    const thread = await client.threads.create();
    const parts = [];
    for await (const part of client.runs.stream(thread.thread_id, "lead_agent", {
      input: say("sql"),
      streamMode: ["values", "messages-tuple"],
    })) {
      parts.push(part.event);
    }
    expect(parts[0]).toBe("metadata");
    expect(parts).not.toContain("end");
    expect(await contents(thread.thread_id)).toEqual(["sql", "echo: sql"]);
    const history = await client.threads.getHistory(thread.thread_id, { limit: 10 });
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history[0]?.checkpoint.checkpoint_id).toBe(
      (await client.threads.getState(thread.thread_id)).checkpoint.checkpoint_id,
    );
  });

  it("updates state and continues from it", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("one") });
    await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ role: "user", content: "hand" }] },
    });
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("two") });
    expect(await contents(thread.thread_id)).toEqual([
      "one",
      "echo: one",
      "hand",
      "two",
      "echo: two",
    ]);
  });

  it("pauses on interrupt() and resumes", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("ask") });
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
    await client.runs.wait(thread.thread_id, "lead_agent", { command: { resume: "ok" } });
    expect((await contents(thread.thread_id)).at(-1)).toBe("answer: ok");
  });

  it("rolls back a cancelled run", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("base") });
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:sql-rb"),
    });
    await h.controls.arrived("sql-rb");
    await client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");
    expect(await contents(thread.thread_id)).toEqual(["base", "echo: base"]);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
  });
});
