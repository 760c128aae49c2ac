import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  BaseCheckpointSaver,
  CheckpointTuple,
  PendingWrite,
} from "@langchain/langgraph-checkpoint";

/**
 * Every checkpoint of `fromThread`, in every namespace (subgraphs' too), with its pending writes,
 * written again under `toThread` with the same ids, versions and parents: the copy's state and
 * history read exactly as the original's. Streams the list, so a long history is never held whole.
 * Answers how many checkpoints were copied.
 */
export async function copyCheckpoints(
  checkpointer: BaseCheckpointSaver<string | number>,
  fromThread: string,
  toThread: string,
): Promise<number> {
  let copied = 0;
  for await (const tuple of checkpointer.list({ configurable: { thread_id: fromThread } })) {
    await copyOne(checkpointer, tuple, fromThread, toThread);
    copied += 1;
  }
  return copied;
}

async function copyOne(
  checkpointer: BaseCheckpointSaver<string | number>,
  tuple: CheckpointTuple,
  fromThread: string,
  toThread: string,
): Promise<void> {
  const ns = stringOr(tuple.config.configurable?.checkpoint_ns, "");
  const parentId = tuple.parentConfig?.configurable?.checkpoint_id;
  const parent: RunnableConfig = {
    configurable: {
      thread_id: toThread,
      checkpoint_ns: ns,
      ...(typeof parentId === "string" ? { checkpoint_id: parentId } : {}),
    },
  };
  const metadata = { ...tuple.metadata };
  // Run metadata names the thread it ran on; the copy names itself, as LangGraph's server does.
  if ((metadata as Record<string, unknown>).thread_id === fromThread) {
    (metadata as Record<string, unknown>).thread_id = toThread;
  }
  const saved = await checkpointer.put(
    parent,
    tuple.checkpoint,
    metadata as NonNullable<CheckpointTuple["metadata"]>,
    tuple.checkpoint.channel_versions,
  );
  const byTask = new Map<string, PendingWrite[]>();
  for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
    const list = byTask.get(taskId) ?? [];
    list.push([channel, value]);
    byTask.set(taskId, list);
  }
  for (const [taskId, writes] of byTask) {
    await checkpointer.putWrites(saved, writes, taskId);
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}
