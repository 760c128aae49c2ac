import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
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

/**
 * One run's view of the SQL saver: every write carries the run's fence, which the saver checks
 * inside the write's transaction (`OwnershipLostError` once a peer owns the run). Reads go to
 * the saver unchanged.
 */
export class FencedCheckpointSaver extends BaseCheckpointSaver<number> {
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
    return this.saver.getTuple(config);
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
    return this.saver.put(config, checkpoint, metadata, newVersions, { fence: this.fence });
  }

  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    return this.saver.putWrites(config, writes, taskId, taskPath, { fence: this.fence });
  }

  deleteThread(threadId: string): Promise<void> {
    return this.saver.deleteThread(threadId, { fence: this.fence });
  }
}
