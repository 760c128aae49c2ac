/**
 * The reference's operations-console reports, `GET /api/console/usage` and `/api/console/stats`,
 * over real runs of two users on SQLite: each caller sees only their own runs, the usage is
 * bucketed by local day (zero-filled) and by model, and spend follows `models[].pricing`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/reference-server.js";

let h: ReferenceServer;
const aliceThreads: string[] = [];

const PRICING = { currency: "usd", input_per_million: 2, output_per_million: 8 };

beforeAll(async () => {
  h = await startReferenceServer({
    database: "sqlite",
    users: ["alice", "bob"],
    config: (home) => ({
      auth: { mode: "local", allow_registration: true },
      models: [
        {
          name: "scripted",
          use: "scripted",
          model: "s",
          script: join(home, "script.json"),
          pricing: PRICING,
        },
      ],
    }),
  });
  await writeFile(
    join(h.home, "script.json"),
    JSON.stringify([{ turns: [{ content: "Paris is the capital of France." }] }]),
  );
  for (const [user, count] of [
    ["alice", 2],
    ["bob", 1],
  ] as const) {
    const sdk = h.sdk(user);
    for (let n = 0; n < count; n += 1) {
      const thread = await sdk.threads.create();
      if (user === "alice") aliceThreads.push(thread.thread_id);
      await sdk.runs.wait(thread.thread_id, "lead_agent", {
        input: { messages: [{ role: "user", content: `Question ${n}?` }] },
      });
    }
  }
});
afterAll(async () => {
  await h?.close();
});

interface Usage {
  days: {
    date: string;
    total_tokens: number;
    input_tokens: number;
    output_tokens: number;
    runs: number;
    cost: number;
  }[];
  by_model: Record<
    string,
    { tokens: number; runs: number; cost: number | null; input_tokens: number }
  >;
  total_tokens: number;
  total_runs: number;
  total_cost: number | null;
  currency: string | null;
}

async function threadTokens(
  threadId: string,
): Promise<{ input: number; output: number; total: number }> {
  const answer = await h.call("alice", "GET", `/threads/${threadId}/token-usage`);
  const usage = answer.json as {
    total_tokens: number;
    total_input_tokens: number;
    total_output_tokens: number;
  };
  return {
    input: usage.total_input_tokens,
    output: usage.total_output_tokens,
    total: usage.total_tokens,
  };
}

describe("console usage", () => {
  it("sums the caller's runs by day and model, priced per million tokens", async () => {
    const answer = await h.call("alice", "GET", "/console/usage?days=7");
    expect(answer.status).toBe(200);
    const usage = answer.json as Usage;
    expect(usage.days).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.days.at(-1)?.date).toBe(today);
    expect(usage.days.slice(0, -1).every((day) => day.runs === 0 && day.total_tokens === 0)).toBe(
      true,
    );

    let input = 0;
    let output = 0;
    let total = 0;
    for (const thread of aliceThreads) {
      const figures = await threadTokens(thread);
      input += figures.input;
      output += figures.output;
      total += figures.total;
    }
    expect(total).toBeGreaterThan(0);
    expect(usage.total_runs).toBe(2);
    expect(usage.total_tokens).toBe(total);
    expect(usage.days.at(-1)).toMatchObject({
      runs: 2,
      total_tokens: total,
      input_tokens: input,
      output_tokens: output,
    });
    const cost = Math.round(((input * 2 + output * 8) / 1_000_000) * 1e6) / 1e6;
    expect(usage.currency).toBe("USD");
    expect(usage.total_cost).toBeCloseTo(cost, 6);
    expect(usage.days.at(-1)?.cost).toBeCloseTo(cost, 6);
    const models = Object.values(usage.by_model);
    expect(models.reduce((sum, model) => sum + model.tokens, 0)).toBe(total);
    expect(models.reduce((sum, model) => sum + (model.cost ?? 0), 0)).toBeCloseTo(cost, 6);
  });

  it("shows each user only their own runs, and counts them in the stats", async () => {
    const bob = (await h.call("bob", "GET", "/console/usage")).json as Usage;
    expect(bob.days).toHaveLength(14);
    expect(bob.total_runs).toBe(1);
    const stats = await h.call("alice", "GET", "/console/stats");
    expect(stats.status).toBe(200);
    expect(stats.json).toMatchObject({
      total_runs: 2,
      active_runs: 0,
      failed_runs: 0,
      total_threads: 2,
      total_agents: 0,
      currency: "USD",
    });
    const usage = (await h.call("alice", "GET", "/console/usage")).json as Usage;
    expect((stats.json as { total_tokens: number }).total_tokens).toBe(usage.total_tokens);
    expect((stats.json as { total_cost: number }).total_cost).toBeCloseTo(usage.total_cost ?? 0, 6);
  });

  it("refuses a window it cannot report, and callers without credentials", async () => {
    for (const query of ["days=0", "days=91", "tz_offset_minutes=900", "days=x", "other=1"]) {
      const answer = await h.call("alice", "GET", `/console/usage?${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.json).toHaveProperty("detail");
    }
    expect((await fetch(`${h.apiUrl}/console/usage`)).status).toBe(401);
    expect((await fetch(`${h.apiUrl}/console/stats`)).status).toBe(401);
  });
});
