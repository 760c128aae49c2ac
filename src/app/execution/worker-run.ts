import type { MessagePort } from "node:worker_threads";
import { RunStartupError } from "../../core/errors.js";
import { type Json, toJson } from "../../core/json/serialize.js";
import type { Logger } from "../../core/logger.js";
import type { LoadedGraph } from "../../graphs/load-graphs.js";
import type { AgentStreamOptions } from "../../ports/agent.js";
import type { NewRunEvent } from "../../ports/run-event-store.js";
import type { RemoteJournalSummary, RemoteRunRequest } from "../../ports/run-execution.js";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import { toGraphCommand } from "../../runtime/graph-command.js";
import { RunJournal } from "../../runtime/journal/run-journal.js";
import { produceRunStream, type StreamOutcome } from "../../runtime/worker/stream-producer.js";
import { runSaversOverPort } from "../../stores/port/run-savers-over-port.js";
import type { RunItem } from "./execution-messages.js";

/** Where a worker's runs send their output: batched per event-loop turn (see `WorkerOutbox`). */
export interface RunOutput {
  item(item: RunItem): void;
  journal(summary: RemoteJournalSummary): void;
}

/**
 * One run in an execution worker: the served graph built over the savers the main thread serves
 * on `port`, streamed with the same loop the main thread uses, its journal (events written
 * through the port under the run's fence) closed before the outcome is sent.
 */
export async function executeRun(
  id: number,
  request: RemoteRunRequest,
  port: MessagePort,
  graphs: ReadonlyMap<string, LoadedGraph>,
  output: RunOutput,
  signal: AbortSignal,
  logger: Logger,
): Promise<StreamOutcome> {
  const savers = runSaversOverPort(port);
  const runLogger = logger.child({
    runId: request.runId,
    threadId: request.threadId,
    userId: request.userId,
  });
  const fenced: { reason?: string } = {};
  const journal = request.journal
    ? new RunJournal({
        eventStore: {
          // The journal appends serialized events only; the port carries their text as it is.
          putBatch: async (events) => {
            await savers.events.putBatch(events.map(serializedEvent));
            return [];
          },
        },
        threadId: request.threadId,
        runId: request.runId,
        userId: request.userId,
        logger: runLogger,
        trackTokenUsage: request.trackTokenUsage,
        onOwnershipLost: (reason) => {
          fenced.reason = reason;
        },
      })
    : null;
  try {
    const graph = graphs.get(request.graphId);
    if (!graph) {
      throw new RunStartupError(`Graph "${request.graphId}" is not served by this worker.`);
    }
    const agent = await graph.agent({
      graphId: request.graphId,
      config: request.config,
      checkpointer: savers.checkpointer,
      store: savers.store,
      logger: runLogger,
    });
    const options: AgentStreamOptions = {
      ...request.config,
      journal,
      streamMode: request.plan.graphModes,
      subgraphs: request.subgraphs,
      signal,
      runName: request.runName,
      ...(request.interruptBefore ? { interruptBefore: request.interruptBefore } : {}),
      ...(request.interruptAfter ? { interruptAfter: request.interruptAfter } : {}),
    };
    const input =
      request.input.kind === "command"
        ? toGraphCommand(request.input.command)
        : request.input.value;
    const resolved = Promise.resolve();
    return await produceRunStream(
      agent,
      input,
      options,
      {
        plan: { ...request.plan, published: new Set(request.plan.published) },
        subgraphs: request.subgraphs,
        callbacks: journal ? [journal] : [],
        abortSignal: signal,
      },
      {
        publish: (event, data) => {
          output.item({ id, kind: "publish", event, data });
          return resolved;
        },
        observeSubagent: (data) => output.item({ id, kind: "subagent", data: toJson(data) }),
        drained: () => resolved,
      },
    );
  } finally {
    if (journal) {
      // A failed or cancelled graph's last callbacks (the root's `run.error`) land a turn later.
      await new Promise((resolve) => setImmediate(resolve));
      await journal.close().catch(() => undefined);
      output.journal({
        drainedCleanly: journal.drainedCleanly,
        delivery: journal.deliveryContent(),
        completion: journal.completionData(),
        ...(fenced.reason !== undefined ? { fencedReason: fenced.reason } : {}),
      });
    }
    savers.close();
  }
}

function serializedEvent(event: NewRunEvent): SerializedRunEvent {
  if (event instanceof SerializedRunEvent) return event;
  return new SerializedRunEvent({
    thread_id: event.thread_id,
    run_id: event.run_id,
    event_type: event.event_type,
    category: event.category,
    content: event.content ?? null,
    metadata: toJson(event.metadata ?? {}) as Record<string, Json>,
    created_at: event.created_at ?? new Date().toISOString(),
    user_id: event.user_id ?? null,
  });
}
