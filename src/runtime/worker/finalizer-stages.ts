import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { raceCancellation } from "../../core/async/task.js";
import { describeError, isCancelledError, isOwnershipLostError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { RunTrace } from "../../ports/run-tracing.js";
import type { CancelAction, RunStatus } from "../../ports/run-types.js";
import type { StreamBridge } from "../../ports/stream-bridge.js";
import type { ThreadStatus } from "../../ports/thread-store.js";
import type { FencedWrite } from "../../ports/write-fence.js";
import type { RunJournal } from "../journal/run-journal.js";
import { isTerminal } from "../lifecycle/run-phase.js";
import { endStaging, setRestoring } from "../lifecycle/terminal-commit.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";
import { confirmTerminalEvent, MISSING_FINAL_ACK_ERROR } from "../terminal-evidence.js";
import type { VerifiedDelivery } from "./produced-outputs.js";
import { type RollbackPoint, restoreRollbackPoint } from "./rollback.js";
import type { RunContext } from "./run-context.js";
import type { SubagentEventBuffer } from "./subagent-events.js";

/**
 * The finalizer's protocol, in order. Each stage is best-effort: a failure is logged and the next
 * stage still runs. When the run is fenced (ownership lost) only the stages in ALWAYS_RUN run.
 */
export const FINALIZER_STAGES = [
  "cancellation",
  "subagent_flush",
  "journal_flush",
  "receipt",
  "terminal_status",
  "completion",
  "thread_status",
  "sandbox_release",
  "completion_hook",
  "journal_freeze",
  "terminal_event",
  "evidence_seal",
  "journal_close",
  "clear_barriers",
  "end",
  "lease_finish",
  "housekeeping",
] as const;
export type FinalizerStage = (typeof FINALIZER_STAGES)[number];

const ALWAYS_RUN: ReadonlySet<FinalizerStage> = new Set([
  // Local cleanup: even a fenced run hands back the sandbox this process holds for its thread.
  "sandbox_release",
  "journal_close",
  "clear_barriers",
  "end",
  "lease_finish",
  "housekeeping",
]);

export const ROLLED_BACK_ERROR = "Rolled back by user";
const RECEIPT_RETRY_DELAYS_MS = [100, 500];

/** Everything the host phase hands to its finalizer. */
export interface Finalization {
  record: RunRecord;
  manager: RunManager;
  bridge: StreamBridge;
  ctx: RunContext;
  journal: RunJournal | null;
  subagents: SubagentEventBuffer;
  hostSignal: AbortSignal;
  logger: Logger;
  started: boolean;
  leaseStarted: boolean;
  completionAllowed: boolean;
  /** The cancellation path still to apply (interrupt or rollback), if the run was cancelled. */
  cancellation: CancelAction | null;
  rollbackPoint: RollbackPoint | null;
  /** The verified delivery receipt content, when outputs were checked. */
  delivery: VerifiedDelivery | null;
  terminalConfirmed: boolean;
  sealError: string | null;
  /** Options of every run-scoped store and bridge write: the run's write fence, if it has one. */
  fenced: FencedWrite;
  /** The checkpointer the run writes through: `ctx.checkpointer` behind the run's write fence. */
  checkpointer: BaseCheckpointSaver | null;
  /** What `ctx.prepareRun` asked to be released when the run ends (called once, then cleared). */
  preparedRelease: (() => Promise<void>) | null;
  /** The run's trace when tracing is on: each stage runs in its span; the last one closes it. */
  trace: RunTrace | null;
}

type StageRunner = (f: Finalization) => Promise<void>;

const STAGES: Record<FinalizerStage, StageRunner> = {
  cancellation: applyPendingCancellation,
  subagent_flush: async (f) => {
    const batch = f.subagents.take(f.record.aborted ? "cancelled" : "failed");
    if (batch.length > 0 && f.ctx.eventStore) await f.ctx.eventStore.putBatch(batch, f.fenced);
  },
  journal_flush: async (f) => {
    await f.journal?.flush();
  },
  receipt: writeDeliveryReceipt,
  terminal_status: commitTerminalStatus,
  completion: async (f) => {
    if (f.journal && f.completionAllowed) {
      await f.manager.updateRunCompletion(f.record.runId, f.journal.completionData());
    }
  },
  thread_status: async (f) => {
    if (!f.started || !f.ctx.threadStore) return;
    await f.ctx.threadStore.updateStatus(
      f.record.threadId,
      threadStatusFor(f.record.status),
      f.manager.nowIso(),
      f.fenced,
    );
  },
  // Before the barrier clears, so the thread's next run never has its fresh acquire parked.
  sandbox_release: async (f) => {
    const prepared = f.preparedRelease;
    f.preparedRelease = null;
    try {
      if (f.started) await f.ctx.releaseSandbox?.(f.record);
    } finally {
      await prepared?.();
    }
  },
  completion_hook: runCompletionHook,
  journal_freeze: async (f) => {
    await f.journal?.freeze();
  },
  terminal_event: publishTerminalEvent,
  evidence_seal: writeEvidenceSeal,
  journal_close: async (f) => {
    await f.journal?.close({ discard: f.record.ownershipLost });
  },
  clear_barriers: async (f) => {
    f.manager.setFinalizing(f.record.runId, false);
    endStaging(f.record);
  },
  end: async (f) => {
    await f.bridge.publishEnd(f.record.runId, f.fenced);
  },
  lease_finish: async (f) => {
    if (f.leaseStarted) await f.bridge.finishProducerLease(f.record.runId);
  },
  housekeeping: async (f) => {
    const { bridge, record, ctx } = f;
    const delayMs = ctx.streamRetentionMs ?? 60_000;
    const spawn = ctx.spawnHousekeeping ?? defaultSpawn(f.logger);
    spawn(`stream-cleanup-${record.runId}`, async (signal) => {
      await idleDelay(delayMs, signal);
      await bridge.cleanup(record.runId);
    });
  },
};

/** Run every stage in order; never throws for a stage failure. */
export async function runFinalization(f: Finalization): Promise<void> {
  for (const stage of FINALIZER_STAGES) {
    if (f.record.ownershipLost && !ALWAYS_RUN.has(stage)) continue;
    try {
      await f.ctx.beforeStage?.(stage, f.record);
      const run = STAGES[stage];
      await (f.trace ? f.trace.stage(stage, () => run(f)) : run(f));
    } catch (error) {
      // A store refused a fenced write: a peer owns the run now; write nothing more.
      if (isOwnershipLostError(error)) f.manager.markOwnershipLost(f.record, describeError(error));
      else f.logger.error({ stage, error: describeError(error) }, "finalizer stage failed");
    }
  }
  f.trace?.end({ status: f.record.status, error: f.record.error });
}

function defaultSpawn(
  logger: Logger,
): (name: string, work: (signal: AbortSignal) => Promise<void>) => void {
  return (name, work) => {
    work(new AbortController().signal).catch((error: unknown) =>
      logger.warn({ task: name, error: describeError(error) }, "housekeeping failed"),
    );
  };
}

/** A delay that does not keep the process alive (stream cleanup must not delay exit). */
function idleDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    timer.unref();
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export function threadStatusFor(status: RunStatus): ThreadStatus {
  switch (status) {
    case "success":
      return "idle";
    case "interrupted":
      return "interrupted";
    case "pending":
    case "running":
      return "busy";
    default:
      return "error";
  }
}

/** Stage the cancellation outcome; a rollback restores the pre-run checkpoint first. */
async function applyPendingCancellation(f: Finalization): Promise<void> {
  const action = f.cancellation;
  if (!action) return;
  f.cancellation = null;
  const { manager, record } = f;
  if (action === "interrupt") {
    await manager.setStatus(record.runId, "interrupted", { persist: false });
    return;
  }
  await manager.setStatus(record.runId, "error", { error: ROLLED_BACK_ERROR, persist: false });
  if (!f.checkpointer || !f.rollbackPoint) return;
  setRestoring(record, true);
  try {
    const restore = f.ctx.restoreCheckpoint ?? restoreRollbackPoint;
    await restore(f.checkpointer, record.threadId, f.rollbackPoint);
  } catch (error) {
    f.logger.error({ error: describeError(error) }, "rollback restore failed");
  } finally {
    setRestoring(record, false);
  }
}

async function writeDeliveryReceipt(f: Finalization): Promise<void> {
  const { journal, record, ctx } = f;
  if (!journal || !ctx.eventStore || record.operationKind !== "run") return;
  const event = {
    thread_id: record.threadId,
    run_id: record.runId,
    event_type: "run.delivery",
    category: "outputs",
    content: f.delivery ?? journal.deliveryContent(),
    metadata: {},
    user_id: record.userId,
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      await ctx.eventStore.putIfAbsent(event, f.fenced);
      return;
    } catch (error) {
      const delay = RECEIPT_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || isCancelledError(error) || isOwnershipLostError(error))
        throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function commitTerminalStatus(f: Finalization): Promise<void> {
  const { manager, record } = f;
  try {
    if (record.aborted) {
      await manager.persistCurrentStatus(record.runId);
      return;
    }
    const outcome = record.status;
    // Nothing was staged (a run that never left `pending`): there is no outcome to commit.
    if (!isTerminal(outcome)) return;
    const late = await manager.setStatusIfNotCancelled(record.runId, outcome, {
      error: record.error,
      stopReason: record.stopReason,
    });
    if (late) {
      f.cancellation = late;
      await applyPendingCancellation(f);
      await manager.persistCurrentStatus(record.runId);
    }
  } finally {
    endStaging(record);
  }
}

async function runCompletionHook(f: Finalization): Promise<void> {
  const hook = f.ctx.onRunCompleted;
  if (!hook) return;
  // Once the host was cancelled, the hook is still called but finalization stops waiting for it.
  const interrupt = new AbortController();
  const relay = (): void => interrupt.abort(f.hostSignal.reason);
  if (f.hostSignal.aborted) relay();
  else f.hostSignal.addEventListener("abort", relay, { once: true });
  try {
    await raceCancellation(
      Promise.resolve().then(() =>
        hook(f.record, {
          signal: interrupt.signal,
          // Only a success leaves the head where the graph ended (a rollback restores the old one).
          finalValues: f.record.status === "success" ? (f.journal?.finalValues() ?? null) : null,
        }),
      ),
      interrupt.signal,
    );
  } catch (error) {
    if (!isCancelledError(error)) throw error;
    f.logger.debug({}, "completion hook interrupted by host cancellation");
  } finally {
    f.hostSignal.removeEventListener("abort", relay);
  }
}

async function publishTerminalEvent(f: Finalization): Promise<void> {
  const { manager, record, journal, ctx } = f;
  if (!journal || !ctx.eventStore || record.operationKind !== "run") return;
  const status = manager.terminalEventStatus(record);
  if (!status) {
    f.sealError = MISSING_FINAL_ACK_ERROR;
    return;
  }
  if (!journal.drainedCleanly) {
    f.sealError = "Run evidence is incomplete: a journal batch failed or its outcome is unknown";
    return;
  }
  const confirmation = await confirmTerminalEvent(
    ctx.eventStore,
    {
      threadId: record.threadId,
      runId: record.runId,
      status,
      userId: record.userId,
      recovered: false,
    },
    f.fenced,
  );
  if (confirmation.confirmed) f.terminalConfirmed = true;
  else if (confirmation.kind === "fenced" && f.fenced.fence) {
    manager.markOwnershipLost(record, confirmation.detail);
  } else f.sealError = confirmation.detail;
}

async function writeEvidenceSeal(f: Finalization): Promise<void> {
  const { manager, record, journal, ctx } = f;
  const store = manager.store;
  if (!journal || !ctx.eventStore || record.operationKind !== "run") return;
  if (f.terminalConfirmed) {
    const receipt = await ctx.eventStore.evidenceReceipt(record.threadId, record.runId);
    await store.updateEvidenceSeal(
      record.runId,
      {
        state: "sealed",
        upperSeq: receipt.upperEventSeq,
        eventCount: receipt.eventCount,
        error: null,
      },
      f.fenced,
    );
    return;
  }
  await store.updateEvidenceSeal(
    record.runId,
    { state: "partial", error: f.sealError ?? "Terminal event was not published" },
    f.fenced,
  );
}
