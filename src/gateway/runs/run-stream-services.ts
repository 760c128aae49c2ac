import type { Fawn } from "../../app/create-fawn.js";
import { isTerminalStatus } from "../../ports/run-types.js";
import type { GatewayServices } from "../gateway-services.js";
import type { RunStreamServices } from "../sse/sse-response.js";

/** What the SSE layer reads of the server for one response: the bridge and a run lookup. */
export function runStreamServices(s: GatewayServices): RunStreamServices {
  const { fawn } = s;
  return {
    source: { bridge: fawn.bridge, isRunFinished: (runId) => runIsFinished(fawn, runId) },
    heartbeatMs: s.heartbeatMs,
    hooks: s.streamHooks,
    logger: s.logger,
    cancelRun: (runId) => fawn.manager.cancel(runId, { action: "interrupt" }),
  };
}

/** True once the run is terminal and no local worker is still finishing it. */
export async function runIsFinished(fawn: Fawn, runId: string): Promise<boolean> {
  const local = fawn.manager.getLocal(runId);
  if (local) return !local.taskIsLive() && isTerminalStatus(local.status) && !local.queued;
  const row = await fawn.stores.runs.get(runId);
  return row === null || isTerminalStatus(row.status);
}
