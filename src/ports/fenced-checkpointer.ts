import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { WriteFence } from "./write-fence.js";

/**
 * A checkpoint saver that can hand one run's graph a view of itself whose writes (`put`,
 * `putWrites`, `deleteThread`) commit only while the run's row names the fence's worker as its
 * owner; reads and caches are shared. The fence travels in the view, never in the run's config,
 * so it cannot show up in state, history or stream events.
 */
export interface FenceableCheckpointSaver {
  withFence(fence: WriteFence): BaseCheckpointSaver;
}

function isFenceable(
  saver: BaseCheckpointSaver,
): saver is BaseCheckpointSaver & FenceableCheckpointSaver {
  return "withFence" in saver && typeof saver.withFence === "function";
}

/**
 * The saver a run's writes go through: fenced when the saver supports it (the SQL saver, shared by
 * processes); otherwise the saver itself (a process-local one has no peer to take the run over).
 */
export function checkpointerForRun(
  saver: BaseCheckpointSaver,
  fence: WriteFence | undefined,
): BaseCheckpointSaver {
  return fence && isFenceable(saver) ? saver.withFence(fence) : saver;
}
