import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointPendingWrite,
  CheckpointTuple,
  SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { maxChannelVersion, TASKS } from "@langchain/langgraph-checkpoint";
import { checkpointConfig } from "./checkpoint-config.js";
import type { LoadedCheckpoint, StoredValue } from "./checkpoint-loader.js";

/** Decodes a list's elements (from the loaded decodings and bytes) into objects of the caller's own. */
export type ListDecoder = (refs: readonly string[], loaded: LoadedCheckpoint) => Promise<unknown[]>;

/**
 * Turns loaded rows into a `CheckpointTuple`. Runs outside the read transaction (it is CPU work)
 * and hands out fresh objects every time (list elements from `decodeList`, which copies cached
 * decodings), so two callers never share a mutable message.
 */
export async function decodeCheckpoint(
  serde: SerializerProtocol,
  loaded: LoadedCheckpoint,
  firstVersion: () => number,
  decodeList: ListDecoder,
): Promise<CheckpointTuple> {
  const { row, header } = loaded;
  const channelValues: Record<string, unknown> = {};
  for (const [channel, stored] of loaded.values) {
    channelValues[channel] = await decodeValue(serde, loaded, stored, decodeList);
  }
  const checkpoint: Checkpoint = {
    v: header.v,
    id: header.id,
    ts: header.ts,
    channel_values: channelValues,
    channel_versions: { ...header.channel_versions },
    versions_seen: header.versions_seen,
  };
  if (loaded.parentSends !== null) {
    // Format < 4 kept pending sends as the parent's TASKS writes; LangGraph expects them as a
    // channel value now (the same migration MemorySaver applies on read).
    channelValues[TASKS] = await Promise.all(
      loaded.parentSends.map((write) => serde.loadsTyped(write.type, write.data)),
    );
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : firstVersion();
  }
  const metadata: CheckpointMetadata = await serde.loadsTyped(row.metadata_type, row.metadata);
  const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
    loaded.writes.map(
      async (write): Promise<CheckpointPendingWrite> => [
        write.taskId,
        write.channel,
        await serde.loadsTyped(write.type, write.data),
      ],
    ),
  );
  const tuple: CheckpointTuple = {
    config: checkpointConfig(row.thread_id, row.checkpoint_ns, row.checkpoint_id),
    checkpoint,
    metadata,
    pendingWrites,
  };
  if (row.parent_checkpoint_id !== null) {
    tuple.parentConfig = checkpointConfig(
      row.thread_id,
      row.checkpoint_ns,
      row.parent_checkpoint_id,
    );
  }
  return tuple;
}

async function decodeValue(
  serde: SerializerProtocol,
  loaded: LoadedCheckpoint,
  stored: StoredValue,
  decodeList: ListDecoder,
): Promise<unknown> {
  if (stored.kind === "value") return serde.loadsTyped(stored.type, stored.data);
  return decodeList(stored.refs, loaded);
}
