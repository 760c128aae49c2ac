import type { Context } from "hono";
import { Hono } from "hono";
import type { CronService } from "../crons/cron-service.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { pathId } from "../http/validation.js";
import { type ScheduledTaskView, toScheduledTask } from "./scheduled-task-view.js";

/** Most tasks one list shows (newest first). */
const MAX_TASKS = 1000;

/**
 * `GET /scheduled-tasks` and `GET /threads/{id}/scheduled-tasks`: the caller's crons (only
 * theirs; a foreign thread is a 404) in the reference's scheduled-task shape, newest first; an
 * empty list when this server runs no crons. Tasks are managed through `/runs/crons`.
 */
export function scheduledTaskRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.get("/scheduled-tasks", async (c) => c.json(await tasksOf(s.crons, owner(c), null)));

  app.get("/threads/:thread_id/scheduled-tasks", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    await s.threads.getOwned(threadId, owner(c));
    return c.json(await tasksOf(s.crons, owner(c), threadId));
  });

  return app;
}

async function tasksOf(
  crons: CronService | undefined,
  userId: string,
  threadId: string | null,
): Promise<ScheduledTaskView[]> {
  if (!crons) return [];
  const rows = await crons.search(userId, {
    ...(threadId === null ? {} : { thread_id: threadId }),
    limit: MAX_TASKS,
    offset: 0,
    sort_by: "created_at",
    sort_order: "desc",
  });
  return rows.map(toScheduledTask);
}

function owner(c: Context<GatewayEnv>): string {
  return c.get("principal").userId;
}
