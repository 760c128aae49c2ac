import type { RunnableConfig } from "@langchain/core/runnables";
import { getCheckpointId } from "@langchain/langgraph-checkpoint";

/** Where a checkpoint lives: thread, namespace and (when known) its id. */
export interface CheckpointAddress {
  threadId: string;
  ns: string;
  checkpointId: string | undefined;
}

function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The thread, namespace and checkpoint id a config names; `threadId` undefined when absent. */
export function readAddress(
  config: RunnableConfig,
): Omit<CheckpointAddress, "threadId"> & { threadId: string | undefined } {
  const configurable = config.configurable ?? {};
  const checkpointId = getCheckpointId(config);
  return {
    threadId: idOf(configurable.thread_id),
    ns: idOf(configurable.checkpoint_ns) ?? "",
    checkpointId: checkpointId === "" ? undefined : checkpointId,
  };
}

/** Like `readAddress`, but a write without a thread id is a caller error (as in MemorySaver). */
export function requireAddress(config: RunnableConfig, action: string): CheckpointAddress {
  const address = readAddress(config);
  if (address.threadId === undefined) {
    throw new Error(
      `Failed to ${action}: the config has no "thread_id" in "configurable"; pass one so the ` +
        "checkpointer knows which thread to persist, e.g. { configurable: { thread_id: 't1' } }.",
    );
  }
  return { ...address, threadId: address.threadId };
}

export function checkpointConfig(threadId: string, ns: string, checkpointId: string) {
  return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId } };
}
