import { Hono } from "hono";
import { z } from "zod";
import type { RunRow } from "../../ports/run-types.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith } from "../http/validation.js";
import { priceList, roundCost, runCost } from "./model-pricing.js";
import { summarizeUsage, windowStart } from "./usage-summary.js";

const THREAD_PAGE = 1000;
const RUN_PAGE = 500;
/** Bounds of one report: the newest threads and runs a caller's figures are taken from. */
const MAX_THREADS = 10_000;
const MAX_RUNS_PER_THREAD = 20_000;

const usageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(14),
  tz_offset_minutes: z.coerce.number().int().min(-840).max(840).default(0),
});

const ACTIVE = new Set(["pending", "running"]);
const FAILED = new Set(["error", "timeout"]);

/**
 * The reference's operations-console reports over the caller's runs: `GET /console/usage` (token
 * usage by local day and by model over a window, with spend when models have `pricing`) and
 * `GET /console/stats` (headline counters). Threads are walked newest-updated first, so a window
 * stops at the first thread last touched before it.
 */
export function consoleRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const prices = priceList(s.config.models);

  app.get("/console/usage", async (c) => {
    const query = parseWith(usageQuery, c.req.query(), "query");
    const now = new Date();
    const since = windowStart(now, query.days, query.tz_offset_minutes);
    const runs = await callerRuns(s, c.get("principal").userId, since);
    return c.json(
      summarizeUsage(runs, {
        now,
        days: query.days,
        offsetMinutes: query.tz_offset_minutes,
        prices,
      }),
    );
  });

  app.get("/console/stats", async (c) => {
    const userId = c.get("principal").userId;
    const runs = await callerRuns(s, userId, null);
    let cost = prices.currency === null ? null : 0;
    for (const run of runs) {
      const spent = runCost(prices, run);
      if (spent !== null && cost !== null) cost += spent;
    }
    return c.json({
      total_runs: runs.length,
      active_runs: runs.filter((run) => ACTIVE.has(run.status)).length,
      failed_runs: runs.filter((run) => FAILED.has(run.status)).length,
      total_threads: await s.threads.count(userId, {}),
      total_agents: (await s.customAgents.list(userId)).length,
      total_tokens: runs.reduce((sum, run) => sum + run.total_tokens, 0),
      total_cost: cost === null ? null : roundCost(cost),
      currency: prices.currency,
    });
  });

  return app;
}

/** The caller's runs created at or after `since` (null: all), from their newest threads. */
async function callerRuns(
  s: GatewayServices,
  userId: string,
  since: Date | null,
): Promise<RunRow[]> {
  const runs: RunRow[] = [];
  const sinceIso = since?.toISOString() ?? null;
  for (let offset = 0; offset < MAX_THREADS; offset += THREAD_PAGE) {
    const threads = await s.threads.search(userId, {
      limit: THREAD_PAGE,
      offset,
      sort_by: "updated_at",
      sort_order: "desc",
    });
    for (const thread of threads) {
      // A thread last updated before the window holds no run of it (a run updates its thread).
      if (sinceIso !== null && thread.updated_at < sinceIso) return runs;
      runs.push(...(await threadRuns(s, thread.thread_id, userId, sinceIso)));
    }
    if (threads.length < THREAD_PAGE) break;
  }
  return runs;
}

async function threadRuns(
  s: GatewayServices,
  threadId: string,
  userId: string,
  sinceIso: string | null,
): Promise<RunRow[]> {
  const runs: RunRow[] = [];
  for (let offset = 0; offset < MAX_RUNS_PER_THREAD; offset += RUN_PAGE) {
    const page = await s.runs.list(threadId, userId, { limit: RUN_PAGE, offset });
    // Newest first: once a page reaches before the window, the rest is older still.
    const inWindow = sinceIso === null ? page : page.filter((run) => run.created_at >= sinceIso);
    runs.push(...inWindow);
    if (page.length < RUN_PAGE || inWindow.length < page.length) break;
  }
  return runs;
}
