import type { GatewayServices } from "../gateway-services.js";
import type { RunStreamServices } from "../sse/sse-response.js";

/** What the SSE layer reads of the server for one response: the bridge and a run lookup. */
export function runStreamServices(s: GatewayServices): RunStreamServices {
  return {
    source: s.runs.streamSource,
    heartbeatMs: s.heartbeatMs,
    hooks: s.streamHooks,
    subscribers: s.streamSubscribers,
    logger: s.logger,
    cancelRun: (runId) => s.runs.interrupt(runId),
  };
}
