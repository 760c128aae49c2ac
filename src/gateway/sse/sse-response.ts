import type { Context } from "hono";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { runEventStream } from "./run-event-stream.js";
import { sseHeaders } from "./sse-frame.js";

export interface RunStreamRequest {
  threadId: string;
  runId: string;
  lastEventId: string | null;
  /** Graph modes to forward; null forwards every event. */
  modes: readonly string[] | null;
  /** Cancel the run (interrupt) when the client disconnects before `end`. */
  cancelOnDisconnect: boolean;
}

/** An SSE response streaming one run's events (replay after `lastEventId`, then live). */
export function runStreamResponse(
  c: Context<GatewayEnv>,
  s: GatewayServices,
  r: RunStreamRequest,
): Response {
  const { stream: fawn, logger } = s;
  const body = runEventStream({
    fawn,
    runId: r.runId,
    threadId: r.threadId,
    lastEventId: r.lastEventId,
    heartbeatMs: s.heartbeatMs,
    modes: r.modes,
    hooks: s.streamHooks,
    destroyConnection: () => c.env.outgoing?.destroy(),
    outgoing: c.env.outgoing,
    logger,
    onDisconnect: r.cancelOnDisconnect
      ? () => {
          fawn.manager.cancel(r.runId, { action: "interrupt" }).catch((error: unknown) => {
            logger.warn({ runId: r.runId, error: String(error) }, "cancel on disconnect failed");
          });
        }
      : undefined,
  });
  return c.body(body, 200, sseHeaders(r.threadId, r.runId));
}
