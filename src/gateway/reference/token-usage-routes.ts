import { Hono } from "hono";
import { z } from "zod";
import { selectModelConfig } from "../../agent/models/list-models.js";
import type { RunRow } from "../../ports/run-types.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { queryBool } from "../http/query.js";
import { parseWith, pathId } from "../http/validation.js";
import {
  aggregateRunTokens,
  type ContextUsage,
  contextUsage,
  countedStatuses,
  estimateMessageTokens,
} from "./thread-token-usage.js";

const PAGE = 500;
/** A thread with more runs than this reports the newest ones' tokens only. */
const MAX_RUNS = 20_000;

const tokenUsageQuery = z.object({ include_active: queryBool.optional() });

/**
 * `GET /threads/{id}/token-usage[?include_active=true]` (the caller's thread, else 404): the
 * thread's token totals from its runs' usage records, by model and by caller, and how full the
 * latest run's model's context window is with the thread's current messages.
 */
export function tokenUsageRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.get("/threads/:thread_id/token-usage", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(tokenUsageQuery, c.req.query(), "query");
    const userId = c.get("principal").userId;
    const runs = await threadRuns(s, threadId, userId);
    const counted = countedStatuses(query.include_active === true);
    const usage = aggregateRunTokens(
      threadId,
      runs.filter((run) => counted.has(run.status)),
    );
    return c.json({ ...usage, context_usage: await threadContext(s, threadId, runs) });
  });

  return app;
}

/** Every run of the caller's thread, newest first (`list` checks the thread is the caller's). */
async function threadRuns(s: GatewayServices, threadId: string, userId: string): Promise<RunRow[]> {
  const runs: RunRow[] = [];
  for (let offset = 0; offset < MAX_RUNS; offset += PAGE) {
    const page = await s.runs.list(threadId, userId, { limit: PAGE, offset });
    runs.push(...page);
    if (page.length < PAGE) break;
  }
  return runs;
}

/** Null when the state cannot be read (the totals still answer). */
async function threadContext(
  s: GatewayServices,
  threadId: string,
  runs: readonly RunRow[],
): Promise<ContextUsage | null> {
  let messages: unknown;
  try {
    messages = (await s.state.state(threadId)).values.messages;
  } catch (error) {
    s.logger.warn({ threadId, error: String(error) }, "token usage: thread state unreadable");
    return null;
  }
  const latestModel = runs.find((run) => run.model_name)?.model_name ?? undefined;
  const { model } = selectModelConfig(s.config, latestModel);
  return contextUsage(estimateMessageTokens(messages), model.context_window ?? null);
}
