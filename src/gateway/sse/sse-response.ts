import type { Context } from "hono";
import type { Logger } from "../../core/logger.js";
import type { StreamSubscriberGauge } from "../../ports/run-metrics.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { runEventStream } from "./run-event-stream.js";
import { sseHeaders } from "./sse-frame.js";
import type { RunStreamSource, StreamTestHooks } from "./stream-writer.js";

/** What an SSE response needs of the server, handed in by the run routes. */
export interface RunStreamServices {
  source: RunStreamSource;
  heartbeatMs: number;
  hooks: StreamTestHooks | undefined;
  logger: Logger;
  /** Counts open streams (metrics); absent: uncounted. */
  subscribers?: StreamSubscriberGauge | undefined;
  /** Interrupts the run: its client asked for that on disconnect, and left before `end`. */
  cancelRun(runId: string): Promise<unknown>;
}

export interface RunStreamRequest {
  threadId: string;
  runId: string;
  lastEventId: string | null;
  /** Graph modes to forward; null forwards every event. */
  modes: readonly string[] | null;
  /** Cancel the run (interrupt) when the client disconnects before `end`. */
  cancelOnDisconnect: boolean;
  /** The request created the run: subscribe at once, before the response is written. */
  createdHere?: boolean;
}

/** An SSE response streaming one run's events (replay after `lastEventId`, then live). */
export function runStreamResponse(
  c: Context<GatewayEnv>,
  services: RunStreamServices,
  r: RunStreamRequest,
): Response {
  const { logger } = services;
  const body = runEventStream({
    source: services.source,
    runId: r.runId,
    threadId: r.threadId,
    lastEventId: r.lastEventId,
    heartbeatMs: services.heartbeatMs,
    modes: r.modes,
    hooks: services.hooks,
    subscribers: services.subscribers,
    holdFromStart: r.createdHere === true,
    destroyConnection: () => c.env.outgoing?.destroy(),
    outgoing: c.env.outgoing,
    logger,
    onDisconnect: r.cancelOnDisconnect
      ? () => {
          services.cancelRun(r.runId).catch((error: unknown) => {
            logger.warn({ runId: r.runId, error: String(error) }, "cancel on disconnect failed");
          });
        }
      : undefined,
  });
  return c.body(body, 200, sseHeaders(r.threadId, r.runId));
}
