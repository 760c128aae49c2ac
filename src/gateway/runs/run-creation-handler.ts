import type { Context } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import { runLocationHeaders } from "../sse/sse-frame.js";
import { runStreamResponse } from "../sse/sse-response.js";
import { idempotencyKeyHeader, lastEventIdHeader } from "./run-headers.js";
import { toApiRun } from "./run-response.js";
import { runCreateBody } from "./run-schemas.js";
import { runStreamServices } from "./run-stream-services.js";

export type RunCreationMode = "create" | "stream" | "wait";

/**
 * The three ways to start a run, shared by thread-scoped and stateless routes: answer the run
 * (`create`), stream its events (`stream`), or wait and answer the final values (`wait`).
 * Everything is validated before the run is admitted.
 */
export async function handleRunCreation(
  c: Context<GatewayEnv>,
  s: GatewayServices,
  mode: RunCreationMode,
  pathThreadId: string | null,
): Promise<Response> {
  const parsed = parseWith(runCreateBody, await readJsonBody(c), "body");
  // A webhook path names this server, at the address the caller reached it by (as the platform).
  const body = parsed.webhook?.startsWith("/")
    ? { ...parsed, webhook: new URL(parsed.webhook, c.req.url).toString() }
    : parsed;
  const idempotencyKey = idempotencyKeyHeader(c);
  const lastEventId = lastEventIdHeader(c);
  const userId = c.get("principal").userId;
  const { record, threadId, threadHold } = await s.runs.create(
    userId,
    pathThreadId,
    body,
    idempotencyKey,
    // `/wait` reads the thread after the run: a temporary thread is deleted only afterwards.
    { holdThread: mode === "wait" },
  );
  const runId = record.runId;
  if (mode === "stream") {
    return runStreamResponse(c, runStreamServices(s), {
      threadId,
      runId,
      lastEventId,
      modes: null,
      cancelOnDisconnect: record.onDisconnect === "cancel",
      // A replayed creation streams an earlier run, perhaps long finished: read it as a join.
      createdHere: !record.idempotencyReused,
    });
  }
  const { Location: _streamPath, ...contentLocation } = runLocationHeaders(threadId, runId);
  for (const [name, value] of Object.entries(contentLocation)) c.header(name, value);
  if (mode === "create") {
    return c.json(toApiRun(await s.runs.currentRow(record)));
  }
  const signal = c.req.raw.signal;
  try {
    const row = await s.runs.waitForEnd(runId, signal);
    return c.json(await s.runs.finalValues(threadId, row));
  } catch (error) {
    if (signal.aborted && record.onDisconnect === "cancel") {
      await s.runs.interrupt(runId).catch(() => undefined);
    }
    throw error;
  } finally {
    threadHold.release();
  }
}
