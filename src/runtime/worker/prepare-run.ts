import type { Finalization } from "./finalizer-stages.js";

/**
 * The context's pre-agent check. False when it refused the run: the run is staged `error` with
 * the refusal's stop reason and its agent is never built.
 */
export async function prepareRun(f: Finalization, signal: AbortSignal): Promise<boolean> {
  const hook = f.ctx.prepareRun;
  if (!hook) return true;
  const { record, manager, bridge } = f;
  const decision = await hook(record, signal);
  if (decision.kind === "proceed") {
    f.preparedRelease = decision.release ?? null;
    return true;
  }
  await bridge
    .publish(record.runId, "error", { message: decision.error, name: "RunRefused" }, f.fenced)
    .catch(() => undefined);
  const late = await manager.setStatusIfNotCancelled(record.runId, "error", {
    error: decision.error,
    stopReason: decision.stopReason,
    persist: false,
  });
  if (late) f.cancellation = late;
  return false;
}
