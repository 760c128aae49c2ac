import { Hono } from "hono";
import { z } from "zod";
import type { RunEvent } from "../../ports/run-event-store.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryInt, queryList } from "../http/query.js";
import { parseWith, pathId } from "../http/validation.js";
import { conversationPage } from "./conversation-page.js";

const seq = queryInt(0, Number.MAX_SAFE_INTEGER);

const eventsQuery = z.object({
  event_types: queryList.pipe(z.array(z.string().min(1).max(64)).max(50)).optional(),
  task_id: z.string().min(1).max(256).optional(),
  limit: queryInt(1, 2000).optional(),
  after_seq: seq.optional(),
});

const messagesQuery = z.object({
  limit: queryInt(1, 200).optional(),
  before_seq: seq.optional(),
  after_seq: seq.optional(),
});

/** Pages backwards only: `after_seq` is refused rather than silently ignored. */
const pageQuery = messagesQuery.extend({
  after_seq: z
    .undefined({ error: "after_seq is not supported here; page backwards with before_seq" })
    .optional(),
});

/** An event as the API shows it: the owner column stays on the server. */
function toApiEvent(event: RunEvent): Omit<RunEvent, "user_id"> {
  const { user_id: _owner, ...rest } = event;
  return rest;
}

interface Page {
  limit: number;
  before_seq?: number | undefined;
  after_seq?: number | undefined;
}

/** Fetch one extra row to learn whether more exist beyond the page, on the side being paged. */
function pageOf(rows: RunEvent[], page: Page): { data: RunEvent[]; hasMore: boolean } {
  if (rows.length <= page.limit) return { data: rows, hasMore: false };
  return page.after_seq !== undefined
    ? { data: rows.slice(0, page.limit), hasMore: true }
    : { data: rows.slice(rows.length - page.limit), hasMore: true };
}

/** Durable run events and message projections (the reference's history API). */
export function runEventRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const { events } = s;

  app.get("/threads/:thread_id/runs/:run_id/events", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(eventsQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.runs.getOwned(threadId, runId, userId);
    const rows = await events.listEvents(threadId, runId, {
      limit: query.limit ?? 500,
      userId,
      ...(query.event_types && query.event_types.length > 0
        ? { eventTypes: query.event_types }
        : {}),
      ...(query.task_id ? { taskId: query.task_id } : {}),
      ...(query.after_seq !== undefined ? { afterSeq: query.after_seq } : {}),
    });
    return c.json(rows.map(toApiEvent));
  });

  app.get("/threads/:thread_id/runs/:run_id/messages", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(messagesQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.runs.getOwned(threadId, runId, userId);
    const page = { ...query, limit: query.limit ?? 50 };
    const rows = await events.listMessagesByRun(threadId, runId, pageOptions(page, userId));
    const { data, hasMore } = pageOf(rows, page);
    return c.json({ data: data.map(toApiEvent), has_more: hasMore });
  });

  app.get("/threads/:thread_id/messages", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(messagesQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    const page = { ...query, limit: query.limit ?? 50 };
    const rows = await events.listMessages(threadId, pageOptions(page, userId));
    return c.json(pageOf(rows, page).data.map(toApiEvent));
  });

  app.get("/threads/:thread_id/messages/page", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(pageQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    // The conversation as the user had it: middleware and sub-agent rows are left out.
    const { data, hasMore } = await conversationPage(events, threadId, {
      limit: query.limit ?? 50,
      beforeSeq: query.before_seq,
      userId,
    });
    return c.json({
      data: data.map(toApiEvent),
      has_more: hasMore,
      next_before_seq: hasMore ? (data[0]?.seq ?? null) : null,
    });
  });

  return app;
}

function pageOptions(page: Page, userId: string) {
  return {
    limit: page.limit + 1,
    userId,
    ...(page.before_seq !== undefined ? { beforeSeq: page.before_seq } : {}),
    ...(page.after_seq !== undefined ? { afterSeq: page.after_seq } : {}),
  };
}
