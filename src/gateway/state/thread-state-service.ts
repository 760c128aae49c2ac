import type { RunnableConfig } from "@langchain/core/runnables";
import { messagesStateReducer } from "@langchain/langgraph";
import {
  type BaseCheckpointSaver,
  type ChannelVersions,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  emptyCheckpoint,
  uuid6,
} from "@langchain/langgraph-checkpoint";
import { describeError, NotFoundError, ValidationError } from "../../core/errors.js";
import { checkpointRef, checkpointToState, isInternalChannel } from "./checkpoint-to-state.js";
import { type ApiThreadState, type CheckpointRef, emptyThreadState } from "./thread-state.js";

/** Which checkpoint of a thread: its head when `checkpoint_id` is absent. */
export interface CheckpointSelector {
  checkpoint_id?: string | null | undefined;
  checkpoint_ns?: string | null | undefined;
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
 * Thread state read and written through the LangGraph checkpointer: checkpoint channel values
 * are the state. Knows nothing of HTTP or owners; callers check ownership first.
 */
export class ThreadStateService {
  constructor(private readonly checkpointer: BaseCheckpointSaver<string | number>) {}

  async tuple(threadId: string, at: CheckpointSelector = {}): Promise<CheckpointTuple | undefined> {
    return this.checkpointer.getTuple(configFor(threadId, at));
  }

  /** The state at `at` (default: head). A missing explicit checkpoint is a 404. */
  async state(threadId: string, at: CheckpointSelector = {}): Promise<ApiThreadState> {
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
    for await (const tuple of this.checkpointer.list(
      configFor(threadId, query.checkpoint ?? {}),
      options,
    )) {
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
   * Write `values` as a new checkpoint on top of the head (or of `checkpoint`). `messages` merges
   * through LangGraph's messages reducer (append, replace by id); every other key is overwritten.
   */
  async update(threadId: string, update: StateUpdate): Promise<CheckpointRef> {
    const at = update.checkpoint ?? {};
    const base = await this.tuple(threadId, at);
    if (!base && at.checkpoint_id) throw checkpointNotFound(at.checkpoint_id);
    const head = at.checkpoint_id ? await this.tuple(threadId) : base;
    const checkpoint = base ? copyCheckpoint(base.checkpoint) : emptyCheckpoint();
    const newVersions: ChannelVersions = {};
    for (const [channel, value] of Object.entries(update.values ?? {})) {
      if (isInternalChannel(channel)) {
        throw new ValidationError(
          `State key "${channel}" is reserved by LangGraph; it cannot be written.`,
        );
      }
      checkpoint.channel_values[channel] =
        channel === "messages" ? mergeMessages(checkpoint.channel_values[channel], value) : value;
      const version = this.checkpointer.getNextVersion(
        head?.checkpoint.channel_versions[channel] ?? checkpoint.channel_versions[channel],
      );
      checkpoint.channel_versions[channel] = version;
      newVersions[channel] = version;
    }
    checkpoint.id = uuid6(-1);
    checkpoint.ts = new Date().toISOString();
    const metadata = {
      source: "update",
      step: (base?.metadata?.step ?? -1) + 1,
      parents: {},
      writes: { [update.asNode ?? "manual_state_update"]: update.values },
    } as CheckpointMetadata;
    const parentConfig: RunnableConfig = base?.config ?? configFor(threadId, at);
    const saved = await this.checkpointer.put(parentConfig, checkpoint, metadata, newVersions);
    const ref = checkpointRef(saved, threadId);
    if (!ref) throw new Error("checkpointer returned no checkpoint id");
    return ref;
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.checkpointer.deleteThread(threadId);
  }
}

function configFor(threadId: string, at: CheckpointSelector): RunnableConfig {
  return {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: at.checkpoint_ns ?? "",
      ...(at.checkpoint_id ? { checkpoint_id: at.checkpoint_id } : {}),
    },
  };
}

function mergeMessages(current: unknown, update: unknown): unknown {
  try {
    return messagesStateReducer(
      (Array.isArray(current) ? current : []) as Parameters<typeof messagesStateReducer>[0],
      update as Parameters<typeof messagesStateReducer>[1],
    );
  } catch (error) {
    throw new ValidationError(`Invalid messages in state update: ${describeError(error)}`);
  }
}

function checkpointNotFound(id: string): NotFoundError {
  return new NotFoundError(`Checkpoint ${id} not found on this thread.`);
}
