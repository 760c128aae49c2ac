import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { type Json, toJson } from "../../core/json/serialize.js";
import type { ApiInterrupt, ApiTask, ApiThreadState, CheckpointRef } from "./thread-state.js";

/** Channels LangGraph keeps for itself; never part of the user-visible state. */
const TRIGGER_PREFIX = "branch:to:";
const START_CHANNEL = "__start__";
const INTERRUPT_WRITE = "__interrupt__";
const ERROR_WRITE = "__error__";

export function isInternalChannel(name: string): boolean {
  return name.startsWith("__") || name.startsWith("branch:") || name.startsWith("start:");
}

export function checkpointRef(
  config: RunnableConfig | undefined,
  threadId: string,
): CheckpointRef | null {
  const configurable = config?.configurable;
  const id = configurable?.checkpoint_id;
  if (typeof id !== "string") return null;
  const ns = configurable?.checkpoint_ns;
  return {
    thread_id: threadId,
    checkpoint_ns: typeof ns === "string" ? ns : "",
    checkpoint_id: id,
    checkpoint_map: null,
  };
}

/** The state values a checkpoint holds: every non-internal channel, as JSON. */
export function stateValues(tuple: CheckpointTuple): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [channel, value] of Object.entries(tuple.checkpoint.channel_values)) {
    if (isInternalChannel(channel)) continue;
    out[channel] = toJson(value);
  }
  return out;
}

/**
 * A checkpoint as LangGraph's `ThreadState`. `next` comes from the pending node triggers
 * (`branch:to:<node>`, or `__start__` for unprocessed input); interrupts and errors from the
 * checkpoint's pending writes. Without the compiled graph, task ids are only known for tasks that
 * wrote something; a task that did not gets a stable synthetic id.
 */
export function checkpointToState(tuple: CheckpointTuple, threadId: string): ApiThreadState {
  const channels = tuple.checkpoint.channel_values;
  const next: string[] = [];
  if (channels[START_CHANNEL] !== undefined) next.push(START_CHANNEL);
  for (const channel of Object.keys(channels)) {
    if (channel.startsWith(TRIGGER_PREFIX)) next.push(channel.slice(TRIGGER_PREFIX.length));
  }
  const interruptsByTask = new Map<string, ApiInterrupt[]>();
  const errorsByTask = new Map<string, string>();
  for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
    if (channel === INTERRUPT_WRITE) {
      const list = interruptsByTask.get(taskId) ?? [];
      list.push(...toInterrupts(value));
      interruptsByTask.set(taskId, list);
    } else if (channel === ERROR_WRITE) {
      errorsByTask.set(taskId, errorText(value));
    }
  }
  const checkpoint = checkpointRef(tuple.config, threadId);
  const writers = [...new Set([...interruptsByTask.keys(), ...errorsByTask.keys()])];
  const tasks: ApiTask[] = next.map((name, index) => {
    // One pending node and one writing task: they are the same task.
    const id =
      next.length === 1 && writers.length === 1
        ? (writers[0] ?? `${checkpoint?.checkpoint_id ?? "none"}:${name}`)
        : `${checkpoint?.checkpoint_id ?? "none"}:${index}:${name}`;
    return {
      id,
      name,
      error: errorsByTask.get(id) ?? null,
      interrupts: interruptsByTask.get(id) ?? [],
      checkpoint: null,
      state: null,
    };
  });
  const parent = checkpointRef(tuple.parentConfig, threadId);
  return {
    values: stateValues(tuple),
    next,
    tasks,
    metadata: (toJson(tuple.metadata ?? {}) ?? {}) as Record<string, Json>,
    created_at: tuple.checkpoint.ts ?? null,
    checkpoint,
    parent_checkpoint: parent,
    interrupts: [...interruptsByTask.values()].flat(),
    checkpoint_id: checkpoint?.checkpoint_id ?? null,
    parent_checkpoint_id: parent?.checkpoint_id ?? null,
  };
}

function toInterrupts(value: unknown): ApiInterrupt[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    const json = toJson(item);
    if (json !== null && typeof json === "object" && !Array.isArray(json) && "value" in json) {
      return json as ApiInterrupt;
    }
    return { value: json };
  });
}

function errorText(value: unknown): string {
  if (typeof value === "string") return value;
  const json = toJson(value);
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    const message = json.message;
    if (typeof message === "string") return message;
  }
  return JSON.stringify(json);
}
