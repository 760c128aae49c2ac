import { OwnershipLostError } from "../../core/errors.js";
import { type Json, toJson } from "../../core/json/serialize.js";
import type { RemoteRunRequest, RemoteRunSavers, RunExecution } from "../../ports/run-execution.js";
import type { Finalization } from "./finalizer-stages.js";
import type { RunAgentRequest } from "./run-context.js";
import { serialPublisher } from "./stream-agent.js";
import type { StreamPlan } from "./stream-plan.js";
import type { StreamOutcome } from "./stream-producer.js";

export interface RemoteRunShape {
  graphId: string;
  config: Record<string, unknown>;
  plan: StreamPlan;
  subgraphs: boolean;
  runName: string;
}

/**
 * Stream the run in an execution worker: the worker builds the graph over this run's savers
 * (served to it from here: the fenced checkpointer, the user's store, the journal's fenced batch
 * writes) and sends back the stream's events, which this thread publishes in order. The worker's
 * journal is fully written before the outcome arrives, so the run's own events keep their order:
 * this journal's buffer is flushed first, and what the finalizer adds comes after.
 */
export async function streamRemotely(
  f: Finalization,
  request: RunAgentRequest,
  shape: RemoteRunShape,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const execution = request.ctx.execution as RunExecution;
  const { record, journal } = f;
  await journal?.flush();
  const remote: RemoteRunRequest = {
    runId: record.runId,
    threadId: record.threadId,
    userId: record.userId,
    graphId: shape.graphId,
    input: request.command
      ? { kind: "command", command: request.command }
      : { kind: "input", value: toJson(request.graphInput) },
    config: toJson(shape.config) as Record<string, Json>,
    plan: {
      graphModes: shape.plan.graphModes,
      published: [...shape.plan.published],
      events: shape.plan.events,
      partialMessages: shape.plan.partialMessages,
    },
    subgraphs: shape.subgraphs,
    ...(request.interruptBefore ? { interruptBefore: request.interruptBefore } : {}),
    ...(request.interruptAfter ? { interruptAfter: request.interruptAfter } : {}),
    runName: shape.runName,
    journal: journal !== null,
    trackTokenUsage: request.ctx.trackTokenUsage ?? true,
  };
  const eventStore = request.ctx.eventStore;
  const store = request.ctx.storeFor?.(record);
  const savers: RemoteRunSavers = {
    ...(f.checkpointer ? { checkpointer: f.checkpointer } : {}),
    ...(store ? { store } : {}),
    ...(eventStore && journal
      ? { events: { putBatch: (events) => eventStore.putBatch(events, f.fenced) } }
      : {}),
  };
  const abortSignal = record.abortSignal;
  const publish = serialPublisher(f);
  const fenced: { reason: string | null } = { reason: null };
  let outcome: Awaited<ReturnType<RunExecution["execute"]>>;
  try {
    outcome = await execution.execute(
      remote,
      savers,
      {
        publish: (event, data) => {
          if (abortSignal.aborted) return;
          // A failure (a fenced publish) is kept by the publisher and raised by `settled`.
          publish(event, data).catch(() => undefined);
        },
        observeSubagent: (data) => {
          f.subagents.observe(data);
        },
        journalEnded: (summary) => {
          journal?.adoptRemote(summary);
          fenced.reason = summary.fencedReason ?? null;
        },
      },
      signal,
    );
  } catch (error) {
    await publish.drained();
    // The store refused a batch for the fence: a peer owns the run, whatever the graph did next.
    if (fenced.reason !== null) throw new OwnershipLostError(fenced.reason);
    throw error;
  }
  await publish.drained();
  if (fenced.reason !== null) throw new OwnershipLostError(fenced.reason);
  await publish.settled();
  return { interrupted: outcome.interrupted };
}
