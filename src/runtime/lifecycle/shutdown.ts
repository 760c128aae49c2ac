import { describeError } from "../../core/errors.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";
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
    // A fenced run (handed off, or its lease lost) is a peer's to end: write nothing for it.
    if ((!settled || record.task?.isCancelled()) && record.isActive() && !record.ownershipLost) {
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

/** What a drain did with the runs that were live when it began. */
export interface DrainOutcome {
  /** Runs that ended on their own before the deadline. */
  finished: number;
  /** Runs still running at the deadline whose leases were released for a peer to take over. */
  handedOff: string[];
}

/**
 * Wait (until `timeoutMs`) for this process's runs to end on their own. Admission is already
 * refused (`RunManager.beginDrain`); queued runs that become active meanwhile are waited for too.
 */
export async function awaitLocalRuns(m: RunManager, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const busy = (): RunRecord[] =>
    m.localRecords().filter((r) => !r.storeOnly && (r.taskIsLive() || r.isActive()));
  const initial = new Set(busy().map((r) => r.runId));
  for (;;) {
    const live = busy();
    const left = deadline - Date.now();
    if (live.length === 0 || left <= 0) {
      return [...initial].filter((id) => !live.some((r) => r.runId === id)).length;
    }
    let timer: NodeJS.Timeout | undefined;
    // A queued run has no task yet: poll so its promotion is seen without a hook into it.
    await Promise.race([
      Promise.race(live.map((r) => r.task?.settled() ?? new Promise(() => undefined))),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.min(left, 250));
      }),
    ]);
    clearTimeout(timer);
  }
}

/**
 * Hand this process's still-active runs to its peers: fence each one locally (no further
 * durable write; its host is cancelled and its finalizer runs only local stages), then move its
 * lease past the grace so a peer's recovery scan claims it at once and writes its one terminal.
 * A run already committing its terminal status is left to finish here.
 */
export async function handOffRuns(m: RunManager): Promise<string[]> {
  const handed = await m.exclusive(async () => {
    const owned = m
      .localRecords()
      .filter(
        (r) =>
          r.isActive() &&
          !r.storeOnly &&
          !r.ownershipLost &&
          !r.finalizing &&
          r.ownerWorkerId === m.workerId,
      );
    for (const record of owned) m.markOwnershipLost(record, "handed off to a peer at shutdown");
    return owned;
  });
  const released = new Date(
    m.clock.now().getTime() - (m.ownership.graceSeconds + 1) * 1000,
  ).toISOString();
  for (const record of handed) {
    try {
      await m.store.renewLease(record.runId, m.workerId, released);
    } catch (error) {
      // The lease then lapses on its own; a peer takes the run over a little later.
      m.logger.warn({ runId: record.runId, error: describeError(error) }, "lease not released");
    }
  }
  if (handed.length > 0) {
    m.logger.info({ runs: handed.map((r) => r.runId) }, "runs handed off to peers at shutdown");
  }
  return handed.map((r) => r.runId);
}
