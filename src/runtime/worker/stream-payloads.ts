import { type Json, toJson } from "../../core/json/serialize.js";

/*
 * The platform's payload shapes for LangGraph's `debug`, `checkpoints` and `tasks` chunks.
 * LangGraph puts the run's whole config in them (callbacks, the run's journal, every
 * `configurable` key); only the checkpoint's address is picked from it, before anything is
 * serialized, so no internal object is ever walked or sent.
 */

/** A checkpoint's address, as the thread state API shows it. */
export interface CheckpointAddress {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  checkpoint_map: null;
}

/** Keys the server uses inside LangGraph's config and metadata; never sent to a client. */
export function isInternalKey(key: string): boolean {
  return key.startsWith("__pregel") || key.startsWith("__fawn") || key === "callbacks";
}

/** `toJson`, without internal keys at any depth (`__interrupt__` and the like stay). */
export function publicJson(value: unknown): Json {
  return scrub(toJson(value));
}

function scrub(value: Json): Json {
  if (Array.isArray(value)) return value.map(scrub);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!isInternalKey(key)) out[key] = scrub(item);
  }
  return out;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function jsonObject(value: Json): Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

/** The address a LangGraph config points at, or null when it names no checkpoint. */
export function checkpointAddress(config: unknown): CheckpointAddress | null {
  const configurable = record(record(config)?.configurable);
  const threadId = configurable?.thread_id;
  const id = configurable?.checkpoint_id;
  if (typeof threadId !== "string" || typeof id !== "string") return null;
  const ns = configurable?.checkpoint_ns;
  return {
    thread_id: threadId,
    checkpoint_ns: typeof ns === "string" ? ns : "",
    checkpoint_id: id,
    checkpoint_map: null,
  };
}

/** The config the platform shows beside a checkpoint: its address only. */
function publicConfig(address: CheckpointAddress | null): Json {
  if (address === null) return null;
  const { thread_id, checkpoint_ns, checkpoint_id } = address;
  return { configurable: { thread_id, checkpoint_ns, checkpoint_id } };
}

/**
 * A task as the platform streams it: a subgraph task's `state` (a config) becomes the
 * `checkpoint` it points at.
 */
export function taskPayload(task: unknown): Json {
  const fields = record(task);
  if (fields === null) return publicJson(task);
  const { state, ...rest } = fields;
  const out = jsonObject(publicJson(rest));
  if (state !== undefined) {
    const address = checkpointAddress(state);
    if (address) out.checkpoint = { ...address };
    else out.state = publicJson(state);
  }
  return out;
}

/**
 * A checkpoint as the platform streams it (`debug` type `checkpoint`, and `checkpoints`):
 * `checkpoint`/`parent_checkpoint` addresses, `config`/`parent_config` reduced to them, values,
 * metadata, next and tasks.
 */
export function checkpointPayload(payload: unknown): Json {
  const fields = record(payload) ?? {};
  const checkpoint = checkpointAddress(fields.config);
  const parent = checkpointAddress(fields.parentConfig ?? fields.parent_config);
  const tasks = Array.isArray(fields.tasks) ? fields.tasks.map(taskPayload) : [];
  return {
    config: publicConfig(checkpoint),
    parent_config: publicConfig(parent),
    checkpoint: checkpoint ? { ...checkpoint } : null,
    parent_checkpoint: parent ? { ...parent } : null,
    values: toJson(fields.values),
    metadata: publicJson(fields.metadata),
    next: publicJson(fields.next ?? []),
    tasks,
  };
}

/** A `debug` chunk: `{type, timestamp, step, payload}` with its payload in the platform's shape. */
export function debugPayload(chunk: unknown): Json {
  const fields = record(chunk);
  if (fields === null) return publicJson(chunk);
  const { payload, ...rest } = fields;
  const out = jsonObject(publicJson(rest));
  if (fields.type === "checkpoint") out.payload = checkpointPayload(payload);
  else if (fields.type === "task" || fields.type === "task_result") {
    out.payload = taskPayload(payload);
  } else out.payload = publicJson(payload);
  return out;
}
