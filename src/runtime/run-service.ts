import type { Task } from "../core/async/task.js";
import { describeError } from "../core/errors.js";
import type { AgentFactory } from "../ports/agent.js";
import { LEAD_AGENT_GRAPH_ID } from "../ports/graph-catalog.js";
import type { RunInvocation } from "../ports/run-types.js";
import type { StreamBridge } from "../ports/stream-bridge.js";
import { toGraphCommand } from "./graph-command.js";
import type { RunRequest } from "./lifecycle/admission.js";
import type { RunManager } from "./run-manager.js";
import type { RunRecord } from "./run-record.js";
import { startRunWorker } from "./worker/run-agent.js";
import type { RunContext } from "./worker/run-context.js";

export type { RunInvocation };

/** A run request plus where it runs and when its worker starts. */
export interface SubmitRunRequest extends RunRequest {
  threadId: string;
  invocation: RunInvocation;
  /** Launch the worker this long after admission (LangGraph `after_seconds`); the run waits `pending`. */
  startDelayMs?: number;
}

export interface RunServiceOptions {
  manager: RunManager;
  bridge: StreamBridge;
  ctx: RunContext;
  agentFactory: AgentFactory;
}

/**
 * Admits runs and launches their workers; when a run finishes, starts the thread's next queued
 * (`enqueue`) run. The one place that turns an admitted record into a running worker.
 */
export class RunService {
  readonly manager: RunManager;
  readonly bridge: StreamBridge;
  private readonly ctx: RunContext;
  private readonly agentFactory: AgentFactory;
  private readonly delayed = new Set<NodeJS.Timeout>();

  constructor(options: RunServiceOptions) {
    this.manager = options.manager;
    this.bridge = options.bridge;
    this.ctx = options.ctx;
    this.agentFactory = options.agentFactory;
  }

  async submit(request: SubmitRunRequest): Promise<RunRecord> {
    const { threadId, startDelayMs, ...admission } = request;
    const admittedAt = performance.now();
    const record = await this.manager.createOrReject(threadId, admission);
    if (!record.idempotencyReused && !record.queued && !record.storeOnly) {
      const latencyMs = performance.now() - admittedAt;
      this.manager.observer?.runAdmitted?.(record.runId, graphOf(record), latencyMs);
      // A cancel during the delay is applied when the worker starts (tryStart refuses an aborted run).
      if (startDelayMs && startDelayMs > 0) this.launchLater(record, startDelayMs);
      else this.launch(record);
    }
    return record;
  }

  private launchLater(record: RunRecord, delayMs: number): void {
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      this.launch(record);
    }, delayMs);
    timer.unref();
    this.delayed.add(timer);
  }

  /**
   * Stop launching delayed runs. Their rows stay `pending` under this worker's lease, so once it
   * lapses recovery closes them instead of leaving them waiting forever.
   */
  close(): void {
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
  }

  /** Start the worker of an admitted, non-queued record. */
  launch(record: RunRecord): Task<void> {
    const invocation = record.kwargs;
    const request = {
      ctx: this.ctx,
      agentFactory: this.agentFactory,
      graphId: graphOf(record),
      graphInput: invocation.command
        ? toGraphCommand(invocation.command)
        : (invocation.input ?? null),
      ...(invocation.command ? { command: invocation.command } : {}),
      config: invocation.config ?? {},
      streamModes: invocation.stream_mode ?? ["values"],
      streamSubgraphs: invocation.stream_subgraphs ?? false,
      ...(invocation.interrupt_before ? { interruptBefore: invocation.interrupt_before } : {}),
      ...(invocation.interrupt_after ? { interruptAfter: invocation.interrupt_after } : {}),
    };
    const task = startRunWorker(this.bridge, this.manager, record, request);
    const { observer } = this.manager;
    observer?.runStarted?.(record.runId, graphOf(record));
    void task.settled().then(() => {
      observer?.runEnded?.(record.runId, graphOf(record), record.status);
      // The durable row is the record of a finished run; keeping it here would grow forever.
      this.manager.forget(record.runId);
      return this.startNextQueued(record.threadId);
    });
    return task;
  }

  /** Launch the thread's oldest queued run if the thread is free (after a run ends or is recovered). */
  async startNextQueued(threadId: string): Promise<void> {
    try {
      const next = await this.manager.promoteNextQueued(threadId);
      if (next && !next.taskIsLive()) this.launch(next);
    } catch (error) {
      this.manager.logger.error(
        { threadId, error: describeError(error) },
        "could not start the next queued run",
      );
    }
  }
}

/** The graph a run executes: its metrics label too (a kind, never an id of a run or user). */
function graphOf(record: RunRecord): string {
  return record.kwargs.graph_id ?? record.assistantId ?? LEAD_AGENT_GRAPH_ID;
}
