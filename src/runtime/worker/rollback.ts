import {
  type BaseCheckpointSaver,
  type ChannelVersions,
  type CheckpointTuple,
  copyCheckpoint,
  uuid6,
} from "@langchain/langgraph-checkpoint";

/** The thread's state before a run touched it: its head checkpoint, or "no checkpoint yet". */
export type RollbackPoint = { kind: "checkpoint"; tuple: CheckpointTuple } | { kind: "empty" };

function threadConfig(threadId: string): {
  configurable: { thread_id: string; checkpoint_ns: string };
} {
  return { configurable: { thread_id: threadId, checkpoint_ns: "" } };
}

export async function captureRollbackPoint(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
): Promise<RollbackPoint> {
  const tuple = await checkpointer.getTuple(threadConfig(threadId));
  return tuple ? { kind: "checkpoint", tuple } : { kind: "empty" };
}

/**
 * Make the pre-run state the thread's head again by writing a copy of the captured checkpoint as
 * a new checkpoint (history is kept; nothing is re-scheduled).
 *
 * Channel versions are re-issued above the current head's so a saver that stores values per
 * (channel, version) never mistakes the abandoned run's values for the restored ones; `versions_seen`
 * is remapped the same way so no node looks newly triggered.
 */
export async function restoreRollbackPoint(
  checkpointer: BaseCheckpointSaver<string | number>,
  threadId: string,
  point: RollbackPoint,
): Promise<boolean> {
  if (point.kind === "empty") {
    await checkpointer.deleteThread(threadId);
    return true;
  }
  const head = await checkpointer.getTuple(threadConfig(threadId));
  const restored = copyCheckpoint(point.tuple.checkpoint);
  const currentVersions = head?.checkpoint.channel_versions ?? {};
  const newVersions: ChannelVersions = {};
  for (const channel of Object.keys(restored.channel_versions)) {
    const oldVersion = restored.channel_versions[channel];
    const next = checkpointer.getNextVersion(currentVersions[channel] ?? oldVersion);
    newVersions[channel] = next;
    for (const seen of Object.values(restored.versions_seen)) {
      if (seen[channel] !== undefined && seen[channel] === oldVersion) seen[channel] = next;
    }
  }
  restored.channel_versions = { ...newVersions };
  restored.id = uuid6(-1);
  restored.ts = new Date().toISOString();
  const parentConfig = head?.config ?? threadConfig(threadId);
  const step = (head?.metadata?.step ?? point.tuple.metadata?.step ?? -1) + 1;
  await checkpointer.put(
    parentConfig,
    restored,
    { source: "update", step, parents: {}, writes: { rollback_restore: null } } as Parameters<
      BaseCheckpointSaver["put"]
    >[2],
    newVersions,
  );
  return true;
}
