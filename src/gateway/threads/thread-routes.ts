import { Hono } from "hono";
import { z } from "zod";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryBool, queryInt } from "../http/query.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import { selectFields } from "./thread-response.js";
import {
  historyBody,
  stateAtCheckpointBody,
  stateUpdateBody,
  threadCountBody,
  threadCreateBody,
  threadPatchBody,
  threadSearchBody,
} from "./thread-schemas.js";

const stateQuery = z.object({
  subgraphs: queryBool.optional(),
  select: z.string().max(2000).optional(),
  include: z.string().max(2000).optional(),
});

const historyQuery = z.object({
  limit: queryInt(1, 1000).optional(),
  before: z.string().min(1).max(128).optional(),
});

/** `/threads…`: thread rows, state and history, all owner-scoped. */
export function threadRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.post("/threads", async (c) => {
    const body = parseWith(threadCreateBody, await readJsonBody(c, { optional: true }), "body");
    return c.json(await s.threads.create(c.get("principal").userId, body));
  });

  app.post("/threads/search", async (c) => {
    const body = parseWith(threadSearchBody, await readJsonBody(c, { optional: true }), "body");
    const threads = await s.threads.search(c.get("principal").userId, body);
    return c.json(threads.map((t) => selectFields(t, body.select)));
  });

  app.post("/threads/count", async (c) => {
    const body = parseWith(threadCountBody, await readJsonBody(c, { optional: true }), "body");
    return c.json(await s.threads.count(c.get("principal").userId, body));
  });

  app.get("/threads/:thread_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    parseWith(stateQuery, firstValues(c.req.queries()), "query");
    return c.json(await s.threads.read(threadId, c.get("principal").userId));
  });

  app.patch("/threads/:thread_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(threadPatchBody, await readJsonBody(c, { optional: true }), "body");
    const thread = await s.threads.patch(threadId, c.get("principal").userId, body.metadata ?? {});
    if (c.req.header("prefer") === "return=minimal") return c.body(null, 204);
    return c.json(thread);
  });

  app.delete("/threads/:thread_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    await s.threads.delete(threadId, c.get("principal").userId);
    return c.body(null, 204);
  });

  app.post("/threads/:thread_id/copy", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    return c.json(await s.threads.copy(threadId, c.get("principal").userId));
  });

  app.get("/threads/:thread_id/state", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(stateQuery, firstValues(c.req.queries()), "query");
    const thread = await s.threads.getOwned(threadId, c.get("principal").userId);
    const state = await s.state.state(threadId, {}, { subgraphs: query.subgraphs, thread });
    return c.json(selectFields(state, selectParam(c.req.queries("select"))));
  });

  app.get("/threads/:thread_id/state/:checkpoint_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const checkpointId = parseWith(
      z.string().min(1).max(128),
      c.req.param("checkpoint_id"),
      "path",
    );
    const query = parseWith(stateQuery, firstValues(c.req.queries()), "query");
    const thread = await s.threads.getOwned(threadId, c.get("principal").userId);
    const state = await s.state.state(
      threadId,
      { checkpoint_id: checkpointId },
      { subgraphs: query.subgraphs, thread },
    );
    return c.json(selectFields(state, selectParam(c.req.queries("select"))));
  });

  app.post("/threads/:thread_id/state/checkpoint", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(stateAtCheckpointBody, await readJsonBody(c), "body");
    const thread = await s.threads.getOwned(threadId, c.get("principal").userId);
    const state = await s.state.state(
      threadId,
      {
        checkpoint_id: body.checkpoint.checkpoint_id ?? null,
        checkpoint_ns: body.checkpoint.checkpoint_ns ?? null,
      },
      { subgraphs: body.subgraphs ?? false, thread },
    );
    return c.json(selectFields(state, body.select));
  });

  app.post("/threads/:thread_id/state", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(stateUpdateBody, await readJsonBody(c), "body");
    const ref = await s.threads.writeState(threadId, c.get("principal").userId, {
      updates: Array.isArray(body.values) ? body.values : [body.values ?? {}],
      asNode: body.as_node ?? undefined,
      checkpoint: {
        checkpoint_id: body.checkpoint?.checkpoint_id ?? body.checkpoint_id ?? null,
        checkpoint_ns: body.checkpoint?.checkpoint_ns ?? null,
      },
    });
    return c.json({
      checkpoint: ref,
      configurable: ref
        ? {
            thread_id: threadId,
            checkpoint_ns: ref.checkpoint_ns,
            checkpoint_id: ref.checkpoint_id,
          }
        : { thread_id: threadId },
    });
  });

  app.post("/threads/:thread_id/history", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const body = parseWith(historyBody, await readJsonBody(c, { optional: true }), "body");
    await s.threads.getOwned(threadId, c.get("principal").userId);
    const before =
      typeof body.before === "string" ? body.before : body.before?.configurable.checkpoint_id;
    const history = await s.state.history(threadId, {
      limit: body.limit ?? 10,
      beforeCheckpointId: before,
      metadata: body.metadata ?? undefined,
      checkpoint: body.checkpoint ?? undefined,
    });
    return c.json(history.map((state) => selectFields(state, body.select)));
  });

  app.get("/threads/:thread_id/history", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(historyQuery, firstValues(c.req.queries()), "query");
    await s.threads.getOwned(threadId, c.get("principal").userId);
    return c.json(
      await s.state.history(threadId, {
        limit: query.limit ?? 10,
        beforeCheckpointId: query.before,
      }),
    );
  });

  return app;
}

/** `select` arrives repeated (`select=a&select=b`, the SDK) or comma-separated. */
function selectParam(values: string[] | undefined): string[] | undefined {
  return values
    ?.flatMap((value) => value.split(","))
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}
