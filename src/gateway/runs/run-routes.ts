import { type Context, Hono } from "hono";
import { z } from "zod";
import { CANCEL_ACTIONS, RUN_STATUSES } from "../../ports/run-types.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryBool, queryInt } from "../http/query.js";
import { parseJsonQueryValue, parseWith, pathId } from "../http/validation.js";
import { runStreamResponse } from "../sse/sse-response.js";
import { handleRunCreation } from "./run-creation-handler.js";
import { lastEventIdHeader, wantsEventStream } from "./run-headers.js";
import { graphStreamModes } from "./run-invocation.js";
import { toApiRun } from "./run-response.js";
import { API_STREAM_MODES } from "./run-schemas.js";
import { runStreamServices } from "./run-stream-services.js";

const listQuery = z.object({
  limit: queryInt(1, 1000).optional(),
  offset: queryInt(0, 1_000_000).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  select: z.string().max(2000).optional(),
});

const cancelQuery = z.object({
  wait: queryBool.optional(),
  action: z.enum(CANCEL_ACTIONS).optional(),
  reason: z.string().max(256).optional(),
});

const joinQuery = z.object({
  cancel_on_disconnect: queryBool.optional(),
  stream_mode: z.string().max(200).optional(),
  namespace: z.string().max(2000).optional(),
  checkpoint_id: z.string().max(128).optional(),
  action: z.enum(CANCEL_ACTIONS).optional(),
});

const streamModes = z.array(z.enum(API_STREAM_MODES)).max(10);

/** `/threads/{thread_id}/runs…`: create, read, cancel, join and delete the caller's runs. */
export function runRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.post("/threads/:thread_id/runs", (c) =>
    handleRunCreation(c, s, "create", pathId(c, "thread_id", "thread")),
  );
  app.post("/threads/:thread_id/runs/stream", (c) =>
    handleRunCreation(c, s, "stream", pathId(c, "thread_id", "thread")),
  );
  app.post("/threads/:thread_id/runs/wait", (c) =>
    handleRunCreation(c, s, "wait", pathId(c, "thread_id", "thread")),
  );

  app.get("/threads/:thread_id/runs", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(listQuery, firstValues(c.req.queries()), "query");
    const rows = await s.runs.list(threadId, c.get("principal").userId, {
      limit: query.limit ?? 10,
      offset: query.offset ?? 0,
      status: query.status,
    });
    return c.json(rows.map(toApiRun));
  });

  app.get("/threads/:thread_id/runs/:run_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    return c.json(toApiRun(await s.runs.getOwned(threadId, runId, c.get("principal").userId)));
  });

  app.delete("/threads/:thread_id/runs/:run_id", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    await s.runs.delete(threadId, runId, c.get("principal").userId);
    return c.body(null, 204);
  });

  app.post("/threads/:thread_id/runs/:run_id/cancel", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(cancelQuery, firstValues(c.req.queries()), "query");
    const status = await s.runs.cancel(threadId, runId, c.get("principal").userId, {
      action: query.action ?? "interrupt",
      wait: query.wait ?? false,
      signal: c.req.raw.signal,
    });
    return c.body(null, status);
  });

  app.get("/threads/:thread_id/runs/:run_id/join", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(joinQuery, firstValues(c.req.queries()), "query");
    const lastEventId = lastEventIdHeader(c);
    await s.runs.getOwned(threadId, runId, c.get("principal").userId);
    if (wantsEventStream(c)) {
      await s.runs.assertStreamable(runId);
      return runStreamResponse(c, runStreamServices(s), {
        threadId,
        runId,
        lastEventId,
        modes: null,
        cancelOnDisconnect: query.cancel_on_disconnect ?? false,
      });
    }
    const signal = c.req.raw.signal;
    try {
      const row = await s.runs.waitForEnd(runId, signal);
      return c.json(await s.runs.finalValues(threadId, row));
    } catch (error) {
      if (signal.aborted && query.cancel_on_disconnect) {
        await s.runs.interrupt(runId).catch(() => undefined);
      }
      throw error;
    }
  });

  const joinStream = async (c: Context<GatewayEnv>): Promise<Response> => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(joinQuery, firstValues(c.req.queries()), "query");
    const modes = parseWith(streamModes, requestedModes(c.req.queries("stream_mode")), "query");
    const lastEventId = lastEventIdHeader(c);
    const userId = c.get("principal").userId;
    await s.runs.getOwned(threadId, runId, userId);
    if (query.action) {
      await s.runs.cancel(threadId, runId, userId, { action: query.action, wait: false });
    }
    await s.runs.assertStreamable(runId);
    return runStreamResponse(c, runStreamServices(s), {
      threadId,
      runId,
      lastEventId,
      modes: modes.length > 0 ? graphStreamModes(modes) : null,
      cancelOnDisconnect: query.cancel_on_disconnect ?? false,
    });
  };
  app.get("/threads/:thread_id/runs/:run_id/stream", joinStream);
  app.post("/threads/:thread_id/runs/:run_id/stream", joinStream);

  return app;
}

/** `stream_mode` arrives repeated, comma-separated, or as a JSON array string. */
function requestedModes(values: string[] | undefined): string[] {
  const out: string[] = [];
  for (const value of values ?? []) {
    const trimmed = value.trim();
    if (trimmed.startsWith("[")) {
      // Not JSON (null): validated below as a plain mode name.
      const parsed = parseJsonQueryValue(trimmed);
      if (Array.isArray(parsed)) {
        for (const item of parsed) out.push(String(item));
        continue;
      }
    }
    out.push(
      ...trimmed
        .split(",")
        .map((mode) => mode.trim())
        .filter((mode) => mode.length > 0),
    );
  }
  return out;
}
