/**
 * Writing checkpoints straight through the saver API (no graph), for tests that need many
 * checkpoints or precise control over parents and list edits.
 */
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  uuid6,
} from "@langchain/langgraph-checkpoint";

export interface PutStep {
  /** The messages channel's value at this checkpoint. */
  messages: unknown[];
  /** Another channel, rewritten at every step, to mix plain blobs with lists. */
  counter: number;
}

export interface PutResult {
  checkpointId: string;
  version: number;
}

/** Puts one checkpoint whose `messages` and `counter` channels are new versions. */
export async function putStep(
  saver: BaseCheckpointSaver,
  threadId: string,
  parent: PutResult | undefined,
  step: PutStep,
): Promise<PutResult> {
  const version = saver.getNextVersion(parent?.version);
  const checkpoint: Checkpoint = {
    v: 4,
    id: uuid6(-1),
    ts: new Date().toISOString(),
    channel_values: { messages: step.messages, counter: step.counter },
    channel_versions: { messages: version, counter: version },
    versions_seen: { agent: { messages: parent?.version ?? 0 } },
  };
  const metadata: CheckpointMetadata = { source: "loop", step: step.counter, parents: {} };
  const config = await saver.put(
    {
      configurable: {
        thread_id: threadId,
        checkpoint_ns: "",
        ...(parent ? { checkpoint_id: parent.checkpointId } : {}),
      },
    },
    checkpoint,
    metadata,
    { messages: version, counter: version },
  );
  await saver.putWrites(config, [["counter", step.counter + 1]], `task-${step.counter}`);
  return { checkpointId: checkpoint.id, version };
}

export async function messagesAt(
  saver: BaseCheckpointSaver,
  threadId: string,
  checkpointId: string,
): Promise<unknown> {
  const tuple = await saver.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
  });
  return tuple?.checkpoint.channel_values.messages;
}
