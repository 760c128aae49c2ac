import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { FencedWrite, WriteFence } from "../../../ports/write-fence.js";

/** The SQL saver's calls a fenced view forwards to (writes with the fence). */
export interface FenceableSaver extends BaseCheckpointSaver<number> {
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
    options?: FencedWrite,
  ): Promise<RunnableConfig>;
  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
    options?: FencedWrite,
  ): Promise<void>;
  deleteThread(threadId: string, options?: FencedWrite): Promise<void>;
}

/** The thread a config reads the head of (root namespace, no checkpoint id), if it does. */
function headReadOf(config: RunnableConfig): string | null {
  const configurable = config.configurable ?? {};
  const threadId: unknown = configurable.thread_id;
  const ns: unknown = configurable.checkpoint_ns ?? "";
  if (typeof threadId !== "string" || ns !== "") return null;
  return configurable.checkpoint_id === undefined ? threadId : null;
}

/** A tuple its next reader may change in place (LangGraph edits its checkpoint's versions). */
function copyTuple(tuple: CheckpointTuple | undefined): CheckpointTuple | undefined {
  if (tuple === undefined) return undefined;
  return {
    ...tuple,
    checkpoint: copyCheckpoint(tuple.checkpoint),
    ...(tuple.pendingWrites ? { pendingWrites: [...tuple.pendingWrites] } : {}),
  };
}

/**
 * One run's view of the SQL saver: every write carries the run's fence, which the saver checks
 * inside the write's transaction (`OwnershipLostError` once a peer owns the run). Reads go to
 * the saver unchanged, with one exception: a run reads its thread's head twice before it writes
 * anything (its rollback point, then the graph's own start), so the view answers the second read
 * with a copy of the first — one read and one decode fewer per run. Any write through the view
 * ends that, and the copy is handed out once.
 */
export class FencedCheckpointSaver extends BaseCheckpointSaver<number> {
  private firstHead: { threadId: string; tuple: Promise<CheckpointTuple | undefined> } | null =
    null;
  private headRead = false;

  constructor(
    private readonly saver: FenceableSaver,
    private readonly fence: WriteFence,
  ) {
    super(saver.serde);
  }

  override getNextVersion(current: number | undefined): number {
    return this.saver.getNextVersion(current);
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = headReadOf(config);
    if (threadId === null) return this.saver.getTuple(config);
    const first = this.firstHead;
    if (first !== null && first.threadId === threadId) {
      this.firstHead = null;
      // A failed first read is no answer for the second: that one reads for itself.
      return first.tuple.then(copyTuple, () => this.saver.getTuple(config));
    }
    const tuple = this.saver.getTuple(config);
    if (!this.headRead) {
      this.headRead = true;
      this.firstHead = { threadId, tuple };
    }
    return tuple;
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.saver.list(config, options);
  }

  override getDeltaChannelHistory(
    options: Parameters<BaseCheckpointSaver["getDeltaChannelHistory"]>[0],
  ): ReturnType<BaseCheckpointSaver["getDeltaChannelHistory"]> {
    return this.saver.getDeltaChannelHistory(options);
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    this.firstHead = null;
    return this.saver.put(config, checkpoint, metadata, newVersions, { fence: this.fence });
  }

  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    this.firstHead = null;
    return this.saver.putWrites(config, writes, taskId, taskPath, { fence: this.fence });
  }

  deleteThread(threadId: string): Promise<void> {
    this.firstHead = null;
    return this.saver.deleteThread(threadId, { fence: this.fence });
  }
}
