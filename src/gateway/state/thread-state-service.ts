import { isCommand } from "@langchain/langgraph";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { NotFoundError, ValidationError } from "../../core/errors.js";
import type { GraphStateAccess, StateSuperstep } from "../../ports/graph-state-access.js";
import type { ThreadRow } from "../../ports/thread-store.js";
import { checkpointRef, checkpointToState } from "./checkpoint-to-state.js";
import { copyCheckpoints } from "./copy-checkpoints.js";
import { type ForkOptions, forkCheckpoint } from "./fork-checkpoint.js";
import { graphCall } from "./graph-call.js";
import { writeSaverState } from "./saver-state-update.js";
import { snapshotToState } from "./snapshot-to-state.js";
import type { ThreadGraphs } from "./thread-graphs.js";
import { type ApiThreadState, type CheckpointRef, emptyThreadState } from "./thread-state.js";

/** Which checkpoint of a thread: its head when `checkpoint_id` is absent. */
export interface CheckpointSelector {
  checkpoint_id?: string | null | undefined;
  checkpoint_ns?: string | null | undefined;
}

export interface StateReadOptions {
  /** Subgraph tasks carry their own state (a served graph's; the lead agent has none). */
  subgraphs?: boolean | undefined;
  /** The thread's row, when the caller has read it (saves a read to find its graph). */
  thread?: ThreadRow | null | undefined;
}

export interface HistoryQuery {
  limit: number;
  /** Only checkpoints older than this one. */
  beforeCheckpointId?: string | undefined;
  /** Checkpoint metadata that must match (LangGraph `filter`). */
  metadata?: Record<string, unknown> | undefined;
  checkpoint?: CheckpointSelector | undefined;
}

export interface StateUpdate {
  values: Record<string, unknown> | null;
  asNode?: string | undefined;
  /** Fork from this checkpoint instead of the head. */
  checkpoint?: CheckpointSelector | undefined;
}

/**
 * Thread state. A thread of a served graph with state access is read and written through that
 * graph (its reducers, `next`, tasks, subgraph state); any other thread (the lead agent's) through
 * the checkpointer, whose channel values are the state. Knows nothing of HTTP or owners; callers
 * check ownership first.
 */
export class ThreadStateService {
  constructor(
    private readonly checkpointer: BaseCheckpointSaver<string | number>,
    private readonly graphs?: ThreadGraphs,
  ) {}

  async tuple(threadId: string, at: CheckpointSelector = {}): Promise<CheckpointTuple | undefined> {
    return this.checkpointer.getTuple(configFor(threadId, at));
  }

  /** The state at `at` (default: head). A missing explicit checkpoint is a 404. */
  async state(
    threadId: string,
    at: CheckpointSelector = {},
    options: StateReadOptions = {},
  ): Promise<ApiThreadState> {
    const graph = await this.graphOf(threadId, options.thread);
    if (graph) {
      if (at.checkpoint_id && !(await this.tuple(threadId, at))) {
        throw checkpointNotFound(at.checkpoint_id);
      }
      const snapshot = await graphCall(() =>
        graph.getState(configFor(threadId, at), { subgraphs: options.subgraphs === true }),
      );
      return snapshotToState(snapshot, threadId);
    }
    const tuple = await this.tuple(threadId, at);
    if (!tuple) {
      if (at.checkpoint_id) throw checkpointNotFound(at.checkpoint_id);
      return emptyThreadState();
    }
    return checkpointToState(tuple, threadId);
  }

  /** Newest first, like LangGraph's `getStateHistory`. */
  async history(threadId: string, query: HistoryQuery): Promise<ApiThreadState[]> {
    const out: ApiThreadState[] = [];
    const options = {
      limit: query.limit,
      ...(query.beforeCheckpointId
        ? { before: { configurable: { checkpoint_id: query.beforeCheckpointId } } }
        : {}),
      ...(query.metadata ? { filter: query.metadata } : {}),
    };
    const config = configFor(threadId, query.checkpoint ?? {});
    const graph = await this.graphOf(threadId);
    if (graph) {
      await graphCall(async () => {
        for await (const snapshot of graph.getStateHistory(config, options)) {
          out.push(snapshotToState(snapshot, threadId));
          if (out.length >= query.limit) break;
        }
      });
      return out;
    }
    for await (const tuple of this.checkpointer.list(config, options)) {
      out.push(checkpointToState(tuple, threadId));
      if (out.length >= query.limit) break;
    }
    return out;
  }

  async hasPendingInterrupt(threadId: string): Promise<boolean> {
    const tuple = await this.tuple(threadId);
    return (tuple?.pendingWrites ?? []).some(([, channel]) => channel === "__interrupt__");
  }

  /**
   * Whether `state` (a thread's head) waits on a human, as LangGraph's server reports it: a
   * pending `interrupt()`, or a run that stopped before nodes it still has to run (an
   * `interrupt_before`/`interrupt_after`). State updates on top keep it waiting; a thread built
   * by updates alone (supersteps) is idle even when it has nodes to run.
   */
  async isInterrupted(threadId: string, state: ApiThreadState): Promise<boolean> {
    if (state.interrupts.length > 0) return true;
    if (state.next.length === 0) return false;
    let source = state.metadata.source;
    let parentId = state.parent_checkpoint_id;
    const ns = state.checkpoint?.checkpoint_ns ?? "";
    for (let hops = 0; source === "update" && parentId && hops < MAX_UPDATE_HOPS; hops += 1) {
      const parent = await this.tuple(threadId, { checkpoint_id: parentId, checkpoint_ns: ns });
      source = parent?.metadata?.source;
      const next = parent?.parentConfig?.configurable?.checkpoint_id;
      parentId = typeof next === "string" ? next : null;
    }
    return source === "loop";
  }

  /**
   * Write `values` as a new checkpoint on top of the head (or of `checkpoint`), as node `asNode`
   * would: through the thread's graph and its reducers when it has one.
   */
  async update(threadId: string, update: StateUpdate): Promise<CheckpointRef> {
    const at = update.checkpoint ?? {};
    const base = await this.tuple(threadId, at);
    if (!base && at.checkpoint_id) throw checkpointNotFound(at.checkpoint_id);
    const graph = await this.graphOf(threadId);
    const saved = graph
      ? await graphCall(() =>
          graph.updateState(
            base ? { configurable: { ...base.config.configurable } } : configFor(threadId, at),
            update.values,
            update.asNode,
          ),
        )
      : await writeSaverState(this.checkpointer, {
          base,
          head: at.checkpoint_id ? await this.tuple(threadId) : base,
          parentConfig: configFor(threadId, at),
          values: update.values,
          asNode: update.asNode,
        });
    return refOf(saved, threadId);
  }

  /**
   * Apply supersteps in order, each one checkpoint (a thread rebuilt from another's updates).
   * Through the thread's graph when it has one, so each checkpoint gets the graph's `next`;
   * otherwise each update is written on the previous one's head.
   */
  async bulkUpdate(threadId: string, supersteps: StateSuperstep[]): Promise<CheckpointRef | null> {
    if (supersteps.length === 0) return null;
    const graph = await this.graphOf(threadId);
    if (graph) {
      const saved = await graphCall(() =>
        graph.bulkUpdateState(configFor(threadId, {}), supersteps),
      );
      return refOf(saved, threadId);
    }
    if (supersteps.some((step) => step.updates.some((item) => isCommand(item.values)))) {
      throw new ValidationError(
        "A superstep command needs the thread's graph to run it; name a served graph (metadata.graph_id) or send values updates.",
      );
    }
    let last: CheckpointRef | null = null;
    for (const step of supersteps) {
      for (const item of step.updates) {
        last = await this.update(threadId, {
          values: (item.values ?? {}) as Record<string, unknown>,
          asNode: item.asNode,
        });
      }
    }
    return last;
  }

  /** Every checkpoint of `fromThread` (all namespaces, pending writes) under `toThread`. */
  async copyThread(fromThread: string, toThread: string): Promise<number> {
    return copyCheckpoints(this.checkpointer, fromThread, toThread);
  }

  /** One checkpoint of `fromThread` as the root of `toThread` (see `forkCheckpoint`). */
  async forkAt(
    fromThread: string,
    checkpointId: string,
    toThread: string,
    options: ForkOptions,
  ): Promise<string> {
    const source = await this.tuple(fromThread, { checkpoint_id: checkpointId });
    if (!source) throw checkpointNotFound(checkpointId);
    return forkCheckpoint(this.checkpointer, source, toThread, options);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.checkpointer.deleteThread(threadId);
  }

  private async graphOf(
    threadId: string,
    row?: ThreadRow | null,
  ): Promise<GraphStateAccess | null> {
    return this.graphs ? this.graphs.forThread(threadId, row) : null;
  }
}

/** How many state updates in a row `isInterrupted` looks through for the run under them. */
const MAX_UPDATE_HOPS = 20;

function configFor(
  threadId: string,
  at: CheckpointSelector,
): { configurable: Record<string, unknown> } {
  return {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: at.checkpoint_ns ?? "",
      ...(at.checkpoint_id ? { checkpoint_id: at.checkpoint_id } : {}),
    },
  };
}

function refOf(
  config: { configurable?: Record<string, unknown> },
  threadId: string,
): CheckpointRef {
  const ref = checkpointRef(config, threadId);
  if (!ref) throw new Error("the checkpointer returned no checkpoint id");
  return ref;
}

function checkpointNotFound(id: string): NotFoundError {
  return new NotFoundError(`Checkpoint ${id} not found on this thread.`);
}
