import { raceCancellation, spawnTask, type Task, throwIfCancelled } from "../../core/async/task.js";
import { runUrgent } from "../../core/async/urgency.js";
import { describeError, isCancelledError, isOwnershipLostError } from "../../core/errors.js";
import { rootLogger } from "../../core/logger.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import { checkpointerForRun } from "../../ports/fenced-checkpointer.js";
import { LEAD_AGENT_GRAPH_ID } from "../../ports/graph-catalog.js";
import type { StreamBridge } from "../../ports/stream-bridge.js";
import { identifyRunInput } from "../journal/run-input.js";
import { RunJournal } from "../journal/run-journal.js";
import type { RunManager } from "../run-manager.js";
import type { RunRecord } from "../run-record.js";
import { drainRunFinalization } from "./drain.js";
import { type Finalization, runFinalization } from "./finalizer-stages.js";
import { prepareRun } from "./prepare-run.js";
import {
  DELIVERY_INCOMPLETE_ERROR,
  fileSystemOutputsScanner,
  type OutputsSnapshot,
  verifyDelivery,
} from "./produced-outputs.js";
import { captureRollbackPoint } from "./rollback.js";
import type { RunAgentRequest } from "./run-context.js";
import { runErrorOf, storedRunError } from "./run-error.js";
import { streamAgent } from "./stream-agent.js";
import { SubagentEventBuffer } from "./subagent-events.js";

/**
 * Execute one admitted run: the host phase streams the agent graph (cancellable through
 * `hostSignal`), then a finalizer task named `run-finalization-<run_id>` commits the outcome. The
 * finalizer is detached from host cancellation; see `drainRunFinalization`.
 */
export async function runAgent(
  bridge: StreamBridge,
  manager: RunManager,
  record: RunRecord,
  request: RunAgentRequest,
  hostSignal: AbortSignal,
): Promise<void> {
  const { ctx } = request;
  // Every line the run logs carries its ids: the journal, the finalizer and the agent get this.
  const logger = (ctx.logger ?? rootLogger).child({
    runId: record.runId,
    threadId: record.threadId,
    // The user the run acts for, as its tools see it (`default` where the server has no auth).
    userId: record.userId ?? DEFAULT_USER_ID,
  });
  const graphId = request.graphId ?? LEAD_AGENT_GRAPH_ID;
  // The journal records the lead agent's own human messages, so they are named (given ids)
  // before the graph runs; any other graph gets its input exactly as the caller sent it.
  const input =
    graphId === LEAD_AGENT_GRAPH_ID
      ? identifyRunInput(request.graphInput)
      : { graphInput: request.graphInput, humanMessages: [] };
  const fence = manager.writeFence(record);
  const journal = ctx.eventStore
    ? (ctx.createJournal ?? ((options) => new RunJournal(options)))({
        eventStore: ctx.eventStore,
        threadId: record.threadId,
        runId: record.runId,
        userId: record.userId,
        logger,
        trackTokenUsage: ctx.trackTokenUsage ?? true,
        humanInput: input.humanMessages,
        ...(fence ? { fence } : {}),
        onOwnershipLost: (reason) => manager.markOwnershipLost(record, reason),
      })
    : null;
  const f: Finalization = {
    record,
    manager,
    bridge,
    ctx,
    journal,
    subagents: new SubagentEventBuffer(record.threadId, record.runId, record.userId),
    hostSignal,
    logger,
    started: false,
    leaseStarted: false,
    completionAllowed: false,
    cancellation: null,
    rollbackPoint: null,
    delivery: null,
    terminalConfirmed: false,
    sealError: null,
    fenced: fence ? { fence } : {},
    // The graph writes checkpoints through this view: a woken ex-owner's puts are refused.
    checkpointer: ctx.checkpointer ? checkpointerForRun(ctx.checkpointer, fence) : null,
    preparedRelease: null,
    trace:
      ctx.tracing?.startRun({
        runId: record.runId,
        threadId: record.threadId,
        userId: record.userId,
        assistantId: record.assistantId,
        graphId,
        admittedAt: record.createdAt,
        langsmithProject: record.kwargs.langsmith_project ?? null,
      }) ?? null,
  };

  await runHostPhase(f, { ...request, graphInput: input.graphInput });

  manager.setFinalizing(record.runId, true);
  const finalizer = spawnTask(`run-finalization-${record.runId}`, () => runFinalization(f));
  if (f.leaseStarted) bridge.transferProducerLease(record.runId, finalizer);
  await drainRunFinalization(finalizer, hostSignal);
}

/** Everything before finalization. Never throws: every outcome is staged for the finalizer. */
async function runHostPhase(f: Finalization, request: RunAgentRequest): Promise<void> {
  const { record, manager, bridge, ctx, hostSignal } = f;
  const runSignal = AbortSignal.any([hostSignal, record.abortSignal]);
  let releaseSlot: (() => void) | null = null;
  try {
    await raceCancellation(
      manager.waitForPriorFinalizing(record.threadId, record.runId, record.abortSignal),
      hostSignal,
    );
    // Past `runtime.max_running_runs` the run stays pending until a slot frees.
    if (ctx.runSlots) releaseSlot = await ctx.runSlots.acquire(runSignal);
    // Starting is the rest of admission: the first SSE event waits for these two writes, so they
    // go before queued background store work, as admission's own do (see `runUrgent`).
    const started = await raceCancellation(
      runUrgent(() => manager.tryStart(record.runId)),
      hostSignal,
    );
    if (started !== "started") {
      if (record.aborted) f.cancellation = record.abortAction;
      return;
    }
    f.started = true;
    f.trace?.started();
    f.leaseStarted = await bridge.startProducerLease(record.runId);
    if (!record.ownershipLost) {
      const threads = ctx.threadStore;
      await runUrgent(async () => {
        await threads?.updateStatus(record.threadId, "busy", manager.nowIso(), f.fenced);
      }).catch((error: unknown) => {
        // Refused by the fence: rethrown, so the run is fenced below, not failed.
        if (isOwnershipLostError(error)) throw error;
        f.logger.warn({ error: describeError(error) }, "thread status update failed");
      });
    }
    f.completionAllowed = true;
    // The platform's first event; Fawn executes a run once, so its attempt is always 1.
    await bridge.publish(record.runId, "metadata", { run_id: record.runId, attempt: 1 }, f.fenced);
    manager.observer?.firstEvent?.(record.runId);
    if (f.checkpointer) {
      f.rollbackPoint = await captureRollbackPoint(f.checkpointer, record.threadId).catch(
        (error: unknown) => {
          f.logger.warn(
            { error: describeError(error) },
            "rollback point capture failed; rollback disabled",
          );
          return null;
        },
      );
    }
    if (!(await prepareRun(f, runSignal))) return;
    const outputs = await snapshotOutputs(f);
    throwIfCancelled(runSignal);
    const { interrupted } = await streamAgent(f, request, runSignal);
    throwIfCancelled(runSignal);
    const undelivered = await verifyProducedOutputs(f, outputs);
    throwIfCancelled(runSignal);
    // A graph stopped at a breakpoint or `interrupt()` waits for its resume: the run (and so
    // the thread) is `interrupted`, as on the platform, and not yet held to its delivery.
    const failed = undelivered && !interrupted;
    const status = interrupted ? "interrupted" : failed ? "error" : "success";
    const late = await manager.setStatusIfNotCancelled(record.runId, status, {
      ...(failed ? { error: DELIVERY_INCOMPLETE_ERROR } : {}),
      stopReason: record.stopReason,
      persist: false,
    });
    if (late) f.cancellation = late;
  } catch (error) {
    // A store or the bridge refused a fenced write: a peer owns the run now.
    if (isOwnershipLostError(error)) {
      manager.markOwnershipLost(record, describeError(error));
      return;
    }
    if (isCancelledError(error) || record.aborted || hostSignal.aborted) {
      if (!record.aborted) record.raiseAbort(describeError(error));
      f.cancellation = record.abortAction;
      return;
    }
    const failure = runErrorOf(error);
    f.logger.error({ error: failure.message, errorClass: failure.error }, "run failed");
    // The platform's error event: the graph's error class and its message.
    await bridge.publish(record.runId, "error", { ...failure }, f.fenced).catch(() => undefined);
    const late = await manager.setStatusIfNotCancelled(record.runId, "error", {
      error: storedRunError(error),
      persist: false,
    });
    if (late) f.cancellation = late;
  } finally {
    releaseSlot?.();
  }
}

interface OutputsBaseline {
  dir: string;
  snapshot: OutputsSnapshot;
}

/** Remember the outputs folder before the run, so produced files can be told apart. */
async function snapshotOutputs(f: Finalization): Promise<OutputsBaseline | null> {
  const dir = f.journal ? (f.ctx.outputsDirFor?.(f.record) ?? null) : null;
  if (!dir) return null;
  const scanner = f.ctx.outputsScanner ?? fileSystemOutputsScanner;
  try {
    return { dir, snapshot: await scanner.snapshot(dir) };
  } catch (error) {
    f.logger.warn(
      { error: describeError(error) },
      "outputs snapshot failed; delivery not verified",
    );
    return null;
  }
}

/** True when the run produced output files but presented none of them. */
async function verifyProducedOutputs(
  f: Finalization,
  baseline: OutputsBaseline | null,
): Promise<boolean> {
  if (!f.journal || !baseline) return false;
  const scanner = f.ctx.outputsScanner ?? fileSystemOutputsScanner;
  const produced = await scanner
    .produced(baseline.dir, baseline.snapshot)
    .catch((error: unknown) => {
      f.logger.warn({ error: describeError(error) }, "produced outputs scan failed");
      return [];
    });
  f.delivery = verifyDelivery(f.journal.deliveryContent(), produced);
  return f.delivery.satisfied === false;
}

/** Launch a run's worker as a task named `run-<run_id>` and attach it to the record. */
export function startRunWorker(
  bridge: StreamBridge,
  manager: RunManager,
  record: RunRecord,
  request: RunAgentRequest,
): Task<void> {
  const task = spawnTask(`run-${record.runId}`, (signal) =>
    runAgent(bridge, manager, record, request, signal),
  );
  record.task = task;
  return task;
}
