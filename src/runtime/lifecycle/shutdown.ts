import type { RunManager } from "../run-manager.js";
import { settle } from "./terminal-commit.js";

/**
 * Stop accepting work: interrupt active runs, let finalizers that already committed a terminal
 * status finish untouched, and wait until `timeoutMs`. A later call waits for leftovers again.
 */
export async function shutdownRuns(
  m: RunManager,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  const remaining = (): number => Math.max(0, deadline - Date.now());
  const pending = await m.exclusive(async () => {
    const live = m.localRecords().filter((r) => r.taskIsLive());
    for (const record of live) {
      if (!record.isActive()) continue; // Already finalizing: await it, never cancel it.
      record.abortAction = "interrupt";
      record.raiseAbort("server shutting down");
      record.task?.cancel("server shutting down");
    }
    return live;
  });
  await m.stopHeartbeat({ timeoutMs: remaining() });
  if (pending.length === 0) return;
  const settledAll = Promise.all(pending.map((r) => r.task?.settled()));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    settledAll,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, remaining());
    }),
  ]);
  clearTimeout(timer);
  for (const record of pending) {
    const settled = record.task?.isDone() ?? true;
    if ((!settled || record.task?.isCancelled()) && record.isActive()) {
      settle(record, "interrupted");
      await Promise.race([
        m.persistStatus(record, "interrupted", { error: "server shut down" }),
        new Promise((resolve) => setTimeout(resolve, remaining()).unref()),
      ]);
    }
    if (!settled)
      m.logger.warn({ runId: record.runId }, "run still finalizing at shutdown deadline");
  }
}
