import { type Json, toJson } from "../../core/json/serialize.js";
import type { StateConfig, StateSnapshotView, StateTask } from "../../ports/graph-state-access.js";
import { checkpointRef } from "./checkpoint-to-state.js";
import type {
  ApiInterrupt,
  ApiTask,
  ApiThreadState,
  CheckpointRef,
  SubgraphNamespaceRef,
} from "./thread-state.js";

/**
 * A served graph's `StateSnapshot` as LangGraph's `ThreadState`: `next`, tasks (path, result,
 * interrupts, subgraph state) and values exactly as the graph computed them, as JSON.
 */
export function snapshotToState(snapshot: StateSnapshotView, threadId: string): ApiThreadState {
  const checkpoint = checkpointRef(snapshot.config, threadId);
  const parent = checkpointRef(snapshot.parentConfig, threadId);
  const tasks = snapshot.tasks.map((task) => toApiTask(task, threadId));
  const metadata = (toJson(snapshot.metadata ?? {}) ?? {}) as Record<string, Json>;
  // The root namespace is implied; LangGraph's server leaves it out of the metadata too.
  if (metadata.checkpoint_ns === "") delete metadata.checkpoint_ns;
  return {
    values: valuesOf(snapshot.values),
    next: [...snapshot.next],
    tasks,
    metadata: snapshot.metadata === undefined ? {} : metadata,
    created_at: snapshot.createdAt ?? null,
    checkpoint,
    parent_checkpoint: parent,
    interrupts: tasks.flatMap((task) => task.interrupts),
    checkpoint_id: checkpoint?.checkpoint_id ?? null,
    parent_checkpoint_id: parent?.checkpoint_id ?? null,
  };
}

function toApiTask(task: StateTask, threadId: string): ApiTask {
  const sub = task.state;
  const out: ApiTask = {
    id: task.id,
    name: task.name,
    error: task.error == null ? null : errorMessage(task.error),
    interrupts: task.interrupts.map(toInterrupt),
    checkpoint: sub !== undefined && !isSnapshot(sub) ? subgraphCheckpoint(sub, threadId) : null,
    state: sub !== undefined && isSnapshot(sub) ? snapshotToState(sub, threadId) : null,
    result: task.result === undefined ? null : toJson(task.result),
  };
  if (task.path !== undefined) out.path = toJson(task.path) as Json[];
  return out;
}

/** Where a subgraph task keeps its state: its namespace, and a checkpoint once it has one. */
function subgraphCheckpoint(
  config: StateConfig,
  threadId: string,
): CheckpointRef | SubgraphNamespaceRef | null {
  const ref = checkpointRef(config, threadId);
  if (ref) return ref;
  const ns = config.configurable?.checkpoint_ns;
  return typeof ns === "string" ? { thread_id: threadId, checkpoint_ns: ns } : null;
}

function isSnapshot(state: StateSnapshotView | StateConfig): state is StateSnapshotView {
  return "values" in state && "next" in state;
}

function valuesOf(values: unknown): Record<string, Json> {
  const json = toJson(values ?? {});
  // State graphs' values are objects; a graph whose state is one bare channel answers `{}`.
  return json !== null && typeof json === "object" && !Array.isArray(json) ? json : {};
}

function toInterrupt(value: unknown): ApiInterrupt {
  const json = toJson(value);
  if (json !== null && typeof json === "object" && !Array.isArray(json) && "value" in json) {
    return json as ApiInterrupt;
  }
  return { value: json };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  const json = toJson(error);
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    const message = json.message;
    if (typeof message === "string") return message;
  }
  return JSON.stringify(json);
}
