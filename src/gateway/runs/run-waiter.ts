import { sleep } from "../../core/async/deadline.js";
import type { RunStore } from "../../ports/run-store.js";
import { isTerminalStatus, type RunRow } from "../../ports/run-types.js";
import type { StreamBridge } from "../../ports/stream-bridge.js";
import type { RunManager } from "../../runtime/run-manager.js";

/** Where a run's end is seen: its local worker, its row, and (cross-process) its stream's end. */
export interface RunEndSource {
  manager: Pick<RunManager, "getLocal">;
  stores: { runs: Pick<RunStore, "get"> };
  bridge: StreamBridge;
}

/** How often a run that is not executing here (or not started yet) is polled in the store. */
const POLL_MS = 100;

/**
 * Resolve when the run is terminal and no local worker is still finalizing it; null when the run
 * vanished. A local run is awaited through its task; anything else through the store.
 */
export async function waitForRunEnd(
  source: RunEndSource,
  runId: string,
  signal?: AbortSignal,
): Promise<RunRow | null> {
  for (;;) {
    signal?.throwIfAborted();
    const local = source.manager.getLocal(runId);
    if (local?.task && local.taskIsLive()) {
      await abortable(local.task.settled(), signal);
      continue;
    }
    let row = await source.stores.runs.get(runId);
    if (!row) return null;
    if (!local && isTerminalStatus(row.status) && (await awaitRemoteEnd(source, runId, signal))) {
      row = (await source.stores.runs.get(runId)) ?? row;
    }
    if (isTerminalStatus(row.status) && !local?.taskIsLive()) return row;
    // The local worker is done but its status write did not land: report what it decided.
    if (local?.task && isTerminalStatus(local.status))
      return { ...row, status: local.status, error: local.error };
    await sleep(POLL_MS, signal);
  }
}

/**
 * A run finishing on another process commits its status before its finalizer is done; the
 * stream's `end` (published last, visible through a cross-process bridge) says it is. Returns
 * false when there is no such stream to watch.
 */
async function awaitRemoteEnd(
  source: RunEndSource,
  runId: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { bridge } = source;
  if (!bridge.supportsCrossProcess || !(await bridge.streamExists(runId))) return false;
  for await (const item of bridge.subscribe(runId, {
    heartbeatMs: POLL_MS * 10,
    ...(signal ? { signal } : {}),
  })) {
    if (item.kind === "end" || item.kind === "gap") return true;
    if (item.kind === "heartbeat") {
      // A finalizer that died before `end` must not hold the waiter forever: the seal is written
      // just before it, and recovery writes one for orphans.
      const row = await source.stores.runs.get(runId);
      if (row?.evidence_seal_state !== "pending") return true;
    }
  }
  return true;
}

function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
