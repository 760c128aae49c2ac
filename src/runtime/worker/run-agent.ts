import { raceCancellation, spawnTask, type Task, throwIfCancelled } from "../../core/async/task.js";
import { describeError, isCancelledError, isOwnershipLostError } from "../../core/errors.js";
import { type Json, toJson } from "../../core/json/serialize.js";
import { SharedJson } from "../../core/json/shared-json.js";
import { rootLogger } from "../../core/logger.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { AgentStreamOptions, GraphStreamMode, StreamingAgent } from "../../ports/agent.js";
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
  const logger = (ctx.logger ?? rootLogger).child({
    runId: record.runId,
    threadId: record.threadId,
  });
  // The journal records the run's own human messages, so they are named before the graph runs.
  const input = identifyRunInput(request.graphInput);
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
  try {
    await raceCancellation(
      manager.waitForPriorFinalizing(record.threadId, record.runId, record.abortSignal),
      hostSignal,
    );
    const started = await raceCancellation(manager.tryStart(record.runId), hostSignal);
    if (started !== "started") {
      if (record.aborted) f.cancellation = record.abortAction;
      return;
    }
    f.started = true;
    f.leaseStarted = await bridge.startProducerLease(record.runId);
    if (!record.ownershipLost) {
      await ctx.threadStore
        ?.updateStatus(record.threadId, "busy", manager.nowIso(), f.fenced)
        .catch((error: unknown) => {
          // Refused by the fence: rethrown, so the run is fenced below, not failed.
          if (isOwnershipLostError(error)) throw error;
          f.logger.warn({ error: describeError(error) }, "thread status update failed");
        });
    }
    f.completionAllowed = true;
    await bridge.publish(
      record.runId,
      "metadata",
      { run_id: record.runId, thread_id: record.threadId },
      f.fenced,
    );
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
    await streamAgent(f, request, runSignal);
    throwIfCancelled(runSignal);
    const undelivered = await verifyProducedOutputs(f, outputs);
    throwIfCancelled(runSignal);
    const late = await manager.setStatusIfNotCancelled(
      record.runId,
      undelivered ? "error" : "success",
      {
        ...(undelivered ? { error: DELIVERY_INCOMPLETE_ERROR } : {}),
        stopReason: record.stopReason,
        persist: false,
      },
    );
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
    const message = describeError(error);
    f.logger.error({ error: message }, "run failed");
    await bridge
      .publish(
        record.runId,
        "error",
        { message, name: error instanceof Error ? error.name : "Error" },
        f.fenced,
      )
      .catch(() => undefined);
    const late = await manager.setStatusIfNotCancelled(record.runId, "error", {
      error: message,
      persist: false,
    });
    if (late) f.cancellation = late;
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

async function streamAgent(
  f: Finalization,
  request: RunAgentRequest,
  signal: AbortSignal,
): Promise<void> {
  const { record, bridge, journal } = f;
  const requested: readonly string[] = request.streamModes ?? ["values"];
  const subgraphs = request.streamSubgraphs ?? false;
  const baseConfig = request.config ?? {};
  // Sub-agent progress rides the `custom` stream; a run that may delegate always reads it so its
  // `subagent.*` events are recorded, but publishes it only when the client asked for it.
  const modes: GraphStreamMode[] = [...(request.streamModes ?? ["values"])];
  if (delegates(baseConfig) && !modes.includes("custom")) modes.push("custom");
  const single = modes.length === 1 && !subgraphs;
  // Identity comes from the admitted run, never from the client: tools resolve the user's
  // folders from `user_id`, so a client-supplied value must not survive.
  const identity = {
    thread_id: record.threadId,
    run_id: record.runId,
    user_id: record.userId ?? DEFAULT_USER_ID,
  };
  const configurable = { ...objectOrEmpty(baseConfig.configurable), ...identity };
  const context = { ...objectOrEmpty(baseConfig.context), ...identity };
  const store = request.ctx.storeFor?.(record);
  const agent: StreamingAgent = await request.agentFactory({
    graphId: request.graphId ?? LEAD_AGENT_GRAPH_ID,
    config: { ...baseConfig, configurable, context },
    ...(f.checkpointer ? { checkpointer: f.checkpointer } : {}),
    ...(store ? { store } : {}),
  });
  const options: AgentStreamOptions = {
    ...baseConfig,
    configurable,
    context,
    callbacks: journal ? [journal] : [],
    journal,
    streamMode: single ? modes[0] : modes,
    subgraphs,
    signal,
    runName: typeof baseConfig.run_name === "string" ? baseConfig.run_name : "lead_agent",
  };
  if (request.interruptBefore) options.interruptBefore = request.interruptBefore;
  if (request.interruptAfter) options.interruptAfter = request.interruptAfter;
  const stream = await agent.stream(request.graphInput, options);
  // Read once: the record's getter goes through the controller to the signal on every chunk.
  const abortSignal = record.abortSignal;
  const metadata = new SharedJson();
  for await (const chunk of stream) {
    if (abortSignal.aborted) break;
    const frame = single
      ? { mode: modes[0] ?? "values", namespace: [], data: chunk }
      : splitChunk(chunk, subgraphs);
    if (frame.namespace.length === 0 && frame.mode === "custom") f.subagents.observe(frame.data);
    if (!requested.includes(frame.mode)) continue;
    const event =
      frame.namespace.length > 0 ? [frame.mode, ...frame.namespace].join("|") : frame.mode;
    await bridge.publish(record.runId, event, frameJson(frame, metadata), f.fenced);
  }
}

/**
 * A `messages` frame is `[message, metadata]`, and LangGraph pairs every token of a model call
 * with the same metadata object: its events share one conversion of it.
 */
function frameJson(frame: StreamFrame, metadata: SharedJson): Json {
  const { data } = frame;
  if (frame.mode === "messages" && Array.isArray(data) && data.length === 2) {
    return [toJson(data[0]), metadata.convert(data[1])];
  }
  return toJson(data);
}

/** True when the run enables the `task` tool (`subagent_enabled` in configurable or context). */
function delegates(config: Record<string, unknown>): boolean {
  return (
    objectOrEmpty(config.configurable).subagent_enabled === true ||
    objectOrEmpty(config.context).subagent_enabled === true
  );
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

interface StreamFrame {
  mode: string;
  namespace: string[];
  data: unknown;
}

/** `[mode, data]` or, with subgraphs, `[namespace, mode, data]`. */
function splitChunk(chunk: unknown, subgraphs: boolean): StreamFrame {
  if (Array.isArray(chunk)) {
    if (subgraphs && chunk.length === 3 && Array.isArray(chunk[0])) {
      return { namespace: chunk[0].map(String), mode: String(chunk[1]), data: chunk[2] };
    }
    if (chunk.length === 2 && typeof chunk[0] === "string")
      return { namespace: [], mode: chunk[0], data: chunk[1] };
  }
  return { namespace: [], mode: "values", data: chunk };
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
