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
import { describeError, ValidationError } from "../../core/errors.js";
import { isInternalChannel } from "./checkpoint-to-state.js";

/**
 * A state write for a graph the gateway knows only through its checkpoints (the lead agent):
 * `values` become a new checkpoint on top of `base`. `messages` merges through LangGraph's
 * messages reducer (append, replace by id); every other key is overwritten.
 */
export async function writeSaverState(
  checkpointer: BaseCheckpointSaver<string | number>,
  write: {
    base: CheckpointTuple | undefined;
    head: CheckpointTuple | undefined;
    parentConfig: RunnableConfig;
    values: Record<string, unknown> | null;
    asNode: string | undefined;
  },
): Promise<RunnableConfig> {
  const { base, head } = write;
  const checkpoint = base ? copyCheckpoint(base.checkpoint) : emptyCheckpoint();
  const newVersions: ChannelVersions = {};
  for (const [channel, value] of Object.entries(write.values ?? {})) {
    if (isInternalChannel(channel)) {
      throw new ValidationError(
        `State key "${channel}" is reserved by LangGraph; it cannot be written.`,
      );
    }
    checkpoint.channel_values[channel] =
      channel === "messages" ? mergeMessages(checkpoint.channel_values[channel], value) : value;
    const version = checkpointer.getNextVersion(
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
    writes: { [write.asNode ?? "manual_state_update"]: write.values },
  } as CheckpointMetadata;
  return checkpointer.put(base?.config ?? write.parentConfig, checkpoint, metadata, newVersions);
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
