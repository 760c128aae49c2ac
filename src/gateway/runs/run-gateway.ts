import { runUrgent } from "../../core/async/urgency.js";
import { isoNow } from "../../core/clock.js";
import {
  BadRequestError,
  ConflictError,
  IdempotencyMismatchError,
  NotFoundError,
} from "../../core/errors.js";
import { isValidId, newThreadId } from "../../core/ids.js";
import type { Json } from "../../core/json/serialize.js";
import type { Logger } from "../../core/logger.js";
import { LEAD_AGENT_GRAPH_ID } from "../../ports/graph-catalog.js";
import type { RunEventStore } from "../../ports/run-event-store.js";
import type { RunStore } from "../../ports/run-store.js";
import {
  type CancelAction,
  type CancelOutcome,
  isActiveStatus,
  isTerminalStatus,
  type RunRow,
  type RunStatus,
} from "../../ports/run-types.js";
import type { StreamBridge } from "../../ports/stream-bridge.js";
import type { ThreadRow, ThreadStore } from "../../ports/thread-store.js";
import type { RunManager } from "../../runtime/run-manager.js";
import type { RunRecord } from "../../runtime/run-record.js";
import type { RunService } from "../../runtime/run-service.js";
import { parseRunError } from "../../runtime/worker/run-error.js";
import type { AssistantCatalog } from "../assistants/assistant-catalog.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../assistants/assistant-catalog.js";
import type { RunStreamSource } from "../sse/stream-writer.js";
import type { ThreadStateService } from "../state/thread-state-service.js";
import type { ThreadService } from "../threads/thread-service.js";
import { mapCancelOutcome } from "./cancel-outcome.js";
import { buildInvocation, withAssistantDefaults } from "./run-invocation.js";
import type { RunCreateBody } from "./run-schemas.js";
import { waitForRunEnd } from "./run-waiter.js";
import { NO_HOLD, TemporaryThreads, type ThreadHold } from "./temporary-threads.js";

/** What a run writes into its thread's metadata about the assistant it ran. */
interface AssistantStamp {
  graph_id: string;
  assistant_id: string;
}

export interface CreatedRun {
  record: RunRecord;
  threadId: string;
  /** Held by a caller that reads the thread after the run (`/runs/wait`); release when done. */
  threadHold: ThreadHold;
}

export interface CreateRunOptions {
  /** The caller will read the thread once the run ends: a temporary thread waits for it. */
  holdThread?: boolean;
}

export interface RunGatewayOptions {
  maxRecursionLimit: number;
  /**
   * Whether callers are authenticated (`auth.mode` is not `disabled`). Without auth, a served
   * graph other than the lead agent reads the `user_id` its caller names, as on the platform.
   */
  authenticated?: boolean;
}

/** The runtime parts run operations go through. */
export interface RunGatewayDeps {
  stores: { runs: RunStore; events: RunEventStore; threads: ThreadStore };
  bridge: StreamBridge;
  manager: Pick<RunManager, "cancel" | "forget" | "get" | "getLocal" | "ownership">;
  runService: Pick<RunService, "submit">;
  logger: Logger;
}

/**
 * Run operations on behalf of one user: creation (thread resolution, checks, admission), reads,
 * cancellation, deletion and waiting. Knows nothing of HTTP.
 */
export class RunGateway {
  private readonly temporaryThreads: TemporaryThreads;
  /** What a run's SSE response reads: the bridge, and whether the run is finished. */
  readonly streamSource: RunStreamSource;

  constructor(
    private readonly deps: RunGatewayDeps,
    private readonly threads: ThreadService,
    private readonly state: ThreadStateService,
    private readonly assistants: AssistantCatalog,
    private readonly options: RunGatewayOptions,
  ) {
    this.temporaryThreads = new TemporaryThreads(deps, threads, deps.logger);
    this.streamSource = { bridge: deps.bridge, isRunFinished: (runId) => this.isFinished(runId) };
  }

  /**
   * Admit a run. `threadId` null is a stateless run: the thread is `config.configurable.thread_id`
   * or a new one, created for the caller. Every check runs before anything is written.
   */
  async create(
    userId: string,
    pathThreadId: string | null,
    body: RunCreateBody,
    idempotencyKey: string | null,
    options: CreateRunOptions = {},
  ): Promise<CreatedRun> {
    const assistant = await runUrgent(() =>
      this.assistants.resolveForRun(body.assistant_id ?? LEAD_AGENT_ASSISTANT_ID, userId),
    );
    const stamp = { graph_id: assistant.graph_id, assistant_id: assistant.assistant_id };
    const key = idempotencyKey === null ? null : `http:${userId}:${idempotencyKey}`;
    if (key) {
      const replay = await this.replayIdempotent(key, userId, pathThreadId);
      if (replay) return replay;
    }
    const threadId = pathThreadId ?? statelessThreadId(body);
    const mayCreate = pathThreadId === null || body.if_not_exists === "create";
    // Admission reads and writes go before queued background store work (see `runUrgent`).
    // A run that may create its thread and checks nothing against its state inserts it at once:
    // one store call for a new thread (a chat's first run) instead of a read, then an insert.
    const insertFirst = mayCreate && !checksThreadState(body);
    const existing = await runUrgent(() =>
      insertFirst
        ? this.createOrFindThread(threadId, userId, stamp)
        : this.deps.stores.threads.get(threadId),
    );
    if (existing && existing.user_id !== userId) throw threadNotFound(threadId);
    if (!existing && !mayCreate) throw threadNotFound(threadId);
    await this.checkCheckpoint(threadId, body, existing !== null);
    if (body.strict_resume && body.command?.resume !== undefined) {
      if (!(await this.state.hasPendingInterrupt(threadId))) {
        throw new ConflictError(`Thread ${threadId} has no pending interrupt to resume.`);
      }
    }
    // Only a thread this stateless call creates is temporary; a named existing one is kept.
    const temporary = pathThreadId === null && !existing && body.on_completion === "delete";
    if (!existing && !insertFirst) {
      await runUrgent(() => this.threads.ensure(threadId, userId));
      await this.stampThread(threadId, null, stamp);
    } else if (existing) await this.stampThread(threadId, existing, stamp);
    const record = await this.deps.runService.submit({
      threadId,
      invocation: {
        ...buildInvocation(withAssistantDefaults(body, assistant), {
          threadId,
          userId,
          maxRecursionLimit: this.options.maxRecursionLimit,
          // The lead agent keeps per-user folders and memory under `user_id`: only Fawn names it.
          clientNamesUser:
            this.options.authenticated !== true && assistant.graph_id !== LEAD_AGENT_GRAPH_ID,
        }),
        graph_id: assistant.graph_id,
        ...(temporary ? { temporary: true } : {}),
      },
      userId,
      assistantId: assistant.assistant_id,
      onDisconnect: body.on_disconnect ?? "continue",
      metadata: body.metadata ?? {},
      multitaskStrategy: body.multitask_strategy ?? "reject",
      idempotencyKey: key,
      ...(body.after_seconds ? { startDelayMs: Math.round(body.after_seconds * 1000) } : {}),
    });
    if (!temporary) return { record, threadId, threadHold: NO_HOLD };
    const hold = this.temporaryThreads.deleteWhenSettled(record.runId, threadId, userId);
    if (!options.holdThread) hold.release();
    return { record, threadId, threadHold: hold };
  }

  /** The caller's run on that thread (kind `run` only), else 404. */
  async getOwned(threadId: string, runId: string, userId: string): Promise<RunRow> {
    const row = await this.deps.stores.runs.get(runId, { userId });
    if (!row || row.thread_id !== threadId || row.operation_kind !== "run")
      throw runNotFound(runId);
    return row;
  }

  async list(
    threadId: string,
    userId: string,
    page: { limit: number; offset: number; status?: RunStatus | undefined },
  ): Promise<RunRow[]> {
    await this.threads.getOwned(threadId, userId);
    return this.deps.stores.runs.listByThread(threadId, {
      userId,
      limit: page.limit,
      offset: page.offset,
      ...(page.status ? { status: page.status } : {}),
    });
  }

  /** 202 when the cancel was accepted, 204 when `wait` saw the run finish. */
  async cancel(
    threadId: string,
    runId: string,
    userId: string,
    options: { action: CancelAction; wait: boolean; signal?: AbortSignal },
  ): Promise<202 | 204> {
    await this.getOwned(threadId, runId, userId);
    const outcome = await this.deps.manager.cancel(runId, { action: options.action });
    const row = await this.deps.stores.runs.get(runId);
    mapCancelOutcome(outcome, runId, row, this.deps.manager.ownership.leaseSeconds);
    if (!options.wait) return 202;
    await waitForRunEnd(this.deps, runId, options.signal);
    return 204;
  }

  /** The run's row as stored now, or what the admitted record says when the store has none yet. */
  async currentRow(record: RunRecord): Promise<RunRow> {
    return (await this.deps.stores.runs.get(record.runId)) ?? record.toRow();
  }

  /** Interrupt a run whose client went away before its end. */
  interrupt(runId: string): Promise<CancelOutcome> {
    return this.deps.manager.cancel(runId, { action: "interrupt" });
  }

  /** True once the run is terminal and no local worker is still finishing it. */
  async isFinished(runId: string): Promise<boolean> {
    const local = this.deps.manager.getLocal(runId);
    if (local) return !local.taskIsLive() && isTerminalStatus(local.status) && !local.queued;
    const row = await this.deps.stores.runs.get(runId);
    return row === null || isTerminalStatus(row.status);
  }

  /** Whether runs executing in other processes can be streamed here (a Redis bridge). */
  streamsAcrossProcesses(): boolean {
    return this.deps.bridge.supportsCrossProcess;
  }

  /** Deletes a finished run and its events; 409 while it is active. */
  async delete(threadId: string, runId: string, userId: string): Promise<void> {
    const row = await this.getOwned(threadId, runId, userId);
    if (isActiveStatus(row.status) || this.deps.manager.getLocal(runId)?.taskIsLive()) {
      throw new ConflictError(`Run ${runId} is still active; cancel it before deleting it.`);
    }
    await this.deps.stores.events.deleteByRun(threadId, runId, { userId });
    await this.deps.stores.runs.delete(runId, { userId });
    this.deps.manager.forget(runId);
  }

  /**
   * A live run executing in another process can only be streamed through a cross-process bridge
   * (Redis); with the in-memory bridge its events are not visible here.
   */
  async assertStreamable(runId: string): Promise<void> {
    const { bridge, manager, stores } = this.deps;
    if (bridge.supportsCrossProcess || manager.getLocal(runId)) return;
    const row = await stores.runs.get(runId);
    if (row && isActiveStatus(row.status) && !(await bridge.streamExists(runId))) {
      throw new ConflictError(
        `Run ${runId} is executing on another server process and this server has no shared stream bridge; set FAWN_REDIS_URL to stream it from any process.`,
      );
    }
  }

  waitForEnd(runId: string, signal?: AbortSignal): Promise<RunRow | null> {
    return waitForRunEnd(this.deps, runId, signal);
  }

  /**
   * What `/wait` and `/join` answer: the thread's values after the run; a failed run adds
   * LangGraph's `__error__` (the graph's error class and message) so the SDK raises it.
   */
  async finalValues(threadId: string, row: RunRow | null): Promise<Record<string, Json>> {
    const { values } = await this.state.state(threadId);
    if (row?.status === "error") {
      return { ...values, __error__: { ...parseRunError(row.error) } };
    }
    return values;
  }

  private async replayIdempotent(
    key: string,
    userId: string,
    pathThreadId: string | null,
  ): Promise<CreatedRun | null> {
    const row = await this.deps.stores.runs.getByIdempotencyKey(key);
    if (!row) return null;
    if (row.user_id !== userId || (pathThreadId !== null && row.thread_id !== pathThreadId)) {
      throw new IdempotencyMismatchError(key.slice(`http:${userId}:`.length));
    }
    const record = await this.deps.manager.get(row.run_id);
    if (!record) return null;
    return { record, threadId: row.thread_id, threadHold: NO_HOLD };
  }

  /** Null when this call created the thread (stamped with its run's assistant); else the row there. */
  private async createOrFindThread(
    threadId: string,
    userId: string,
    stamp: AssistantStamp,
  ): Promise<ThreadRow | null> {
    const { thread, created } = await this.deps.stores.threads.create({
      thread_id: threadId,
      user_id: userId,
      metadata: { ...stamp },
      created_at: isoNow(),
    });
    return created ? null : thread;
  }

  /**
   * The platform keeps a thread's last run's `graph_id` and `assistant_id` in its metadata (so a
   * thread search finds an assistant's threads); written only when they change.
   */
  private async stampThread(
    threadId: string,
    existing: ThreadRow | null,
    stamp: AssistantStamp,
  ): Promise<void> {
    const current = existing?.metadata;
    if (current?.graph_id === stamp.graph_id && current.assistant_id === stamp.assistant_id) return;
    await runUrgent(() => this.deps.stores.threads.update(threadId, { metadata: { ...stamp } }));
  }

  /** A resume/fork point must belong to the thread and exist. */
  private async checkCheckpoint(
    threadId: string,
    body: RunCreateBody,
    threadExists: boolean,
  ): Promise<void> {
    const checkpointThread = body.checkpoint?.thread_id;
    if (checkpointThread && checkpointThread !== threadId) {
      throw new BadRequestError(
        "checkpoint.thread_id names another thread; a run can only resume its own thread.",
      );
    }
    const checkpointId = body.checkpoint?.checkpoint_id ?? body.checkpoint_id;
    if (!checkpointId) return;
    const tuple = threadExists
      ? await this.state.tuple(threadId, {
          checkpoint_id: checkpointId,
          checkpoint_ns: body.checkpoint?.checkpoint_ns ?? "",
        })
      : undefined;
    if (!tuple)
      throw new NotFoundError(`Checkpoint ${checkpointId} not found on thread ${threadId}.`);
  }
}

/** Whether admission checks the thread's checkpoints (a resume or fork point, strict resume). */
function checksThreadState(body: RunCreateBody): boolean {
  return (
    body.checkpoint != null ||
    body.checkpoint_id != null ||
    (body.strict_resume === true && body.command?.resume !== undefined)
  );
}

function statelessThreadId(body: RunCreateBody): string {
  const requested = body.config?.configurable?.thread_id;
  if (requested === undefined || requested === null) return newThreadId();
  if (!isValidId(requested)) {
    throw new BadRequestError(
      'config.configurable.thread_id must be a UUID or 1-64 characters of letters, digits, "_" or "-".',
    );
  }
  return requested;
}

export function threadNotFound(threadId: string): NotFoundError {
  return new NotFoundError(`Thread ${threadId} not found.`);
}

export function runNotFound(runId: string): NotFoundError {
  return new NotFoundError(`Run ${runId} not found.`);
}
