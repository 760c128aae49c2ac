import {
  type BaseCheckpointSaver,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  uuid6,
} from "@langchain/langgraph-checkpoint";

export interface ForkOptions {
  /** Channels the new thread must not inherit (its sandbox, its folders' paths). */
  dropChannels: readonly string[];
  /** Added to the checkpoint's metadata (where it came from). */
  metadata: Record<string, unknown>;
  /** Channel values the new thread starts with instead of the source's (e.g. its title). */
  values?: Record<string, unknown>;
}

/**
 * `source`'s channel values as the first and only checkpoint of `toThread` (a root: no parent,
 * no pending writes), under a fresh id: the new thread starts at rest in that state, while the
 * source's later history stays its own. Answers the new checkpoint's id.
 */
export async function forkCheckpoint(
  checkpointer: BaseCheckpointSaver<string | number>,
  source: CheckpointTuple,
  toThread: string,
  options: ForkOptions,
): Promise<string> {
  const checkpoint = copyCheckpoint(source.checkpoint);
  for (const channel of options.dropChannels) {
    delete checkpoint.channel_values[channel];
    delete checkpoint.channel_versions[channel];
  }
  for (const [channel, value] of Object.entries(options.values ?? {})) {
    checkpoint.channel_values[channel] = value;
    checkpoint.channel_versions[channel] = checkpointer.getNextVersion(
      checkpoint.channel_versions[channel],
    );
  }
  checkpoint.id = uuid6(-1);
  checkpoint.ts = new Date().toISOString();
  const metadata = {
    source: "fork",
    step: source.metadata?.step ?? 0,
    parents: {},
    ...options.metadata,
  } as CheckpointMetadata;
  const saved = await checkpointer.put(
    { configurable: { thread_id: toThread, checkpoint_ns: "" } },
    checkpoint,
    metadata,
    checkpoint.channel_versions,
  );
  const id = saved.configurable?.checkpoint_id;
  if (typeof id !== "string") throw new Error("the checkpointer returned no checkpoint id");
  return id;
}
