import { sleep } from "../../core/async/deadline.js";
import type { Fawn } from "../../embedded/create-fawn.js";
import { isTerminalStatus, type RunRow } from "../../runtime/run-types.js";

/** How often a run that is not executing here (or not started yet) is polled in the store. */
const POLL_MS = 100;

/**
 * Resolve when the run is terminal and no local worker is still finalizing it; null when the run
 * vanished. A local run is awaited through its task; anything else through the store.
 */
export async function waitForRunEnd(
  fawn: Fawn,
  runId: string,
  signal?: AbortSignal,
): Promise<RunRow | null> {
  for (;;) {
    signal?.throwIfAborted();
    const local = fawn.manager.getLocal(runId);
    if (local?.task && local.taskIsLive()) {
      await abortable(local.task.settled(), signal);
      continue;
    }
    const row = await fawn.stores.runs.get(runId);
    if (!row) return null;
    if (isTerminalStatus(row.status) && !local?.taskIsLive()) return row;
    // The local worker is done but its status write did not land: report what it decided.
    if (local?.task && isTerminalStatus(local.status))
      return { ...row, status: local.status, error: local.error };
    await sleep(POLL_MS, signal);
  }
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
