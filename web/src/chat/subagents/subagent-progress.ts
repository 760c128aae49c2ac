/**
 * What the chat knows about each sub-agent (`task` call), keyed by its task id (the tool call's
 * id): from the `task_*` chunks of the run's `custom` stream while it runs, and from the run's
 * stored `subagent.*` events after a reload. Pure, so it is unit tested without a browser.
 */

export type SubagentState = "running" | "done" | "failed" | "cancelled" | "timed_out";

export interface SubagentProgress {
  taskId: string;
  description: string | null;
  state: SubagentState;
  /** Epoch milliseconds. */
  startedAt: number | null;
  endedAt: number | null;
  /** One readable line (or a few) per sub-agent step, in order. */
  steps: string[];
  result: string | null;
  error: string | null;
}

export type SubagentProgressMap = ReadonlyMap<string, SubagentProgress>;

const TERMINAL_CHUNKS: Record<string, SubagentState> = {
  task_completed: "done",
  task_failed: "failed",
  task_cancelled: "cancelled",
  task_timed_out: "timed_out",
};

/** The run events' `status` (`completed`, …) as a card state. */
const EVENT_STATUSES: Record<string, SubagentState> = {
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
  timed_out: "timed_out",
  polling_timed_out: "timed_out",
};

function empty(taskId: string): SubagentProgress {
  return {
    taskId,
    description: null,
    state: "running",
    startedAt: null,
    endedAt: null,
    steps: [],
    result: null,
    error: null,
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Applies one `custom` stream chunk; anything that is not a `task_*` chunk leaves `map` as is. */
export function applyTaskChunk(
  map: SubagentProgressMap,
  chunk: unknown,
  now: number,
): SubagentProgressMap {
  if (!isRecord(chunk) || typeof chunk.type !== "string" || typeof chunk.task_id !== "string")
    return map;
  const { type, task_id: taskId } = chunk;
  const current = map.get(taskId) ?? empty(taskId);
  let next: SubagentProgress;
  if (type === "task_started") {
    next = {
      ...current,
      description: text(chunk.description) ?? current.description,
      startedAt: current.startedAt ?? now,
      state: "running",
    };
  } else if (type === "task_running") {
    const line = text(chunk.text);
    next = {
      ...current,
      startedAt: current.startedAt ?? now,
      steps: line ? [...current.steps, line] : current.steps,
    };
  } else {
    const state = TERMINAL_CHUNKS[type];
    if (!state) return map;
    next = {
      ...current,
      state,
      endedAt: now,
      result: text(chunk.result) ?? current.result,
      error: text(chunk.error) ?? current.error,
    };
  }
  const copy = new Map(map);
  copy.set(taskId, next);
  return copy;
}

/** A stored run event as `GET /threads/{id}/runs/{run}/events` returns it. */
export interface StoredRunEvent {
  event_type: string;
  content: unknown;
  created_at: string;
}

/** Sub-agent progress rebuilt from a run's stored `subagent.*` events (in `seq` order). */
export function progressFromEvents(
  events: ReadonlyArray<StoredRunEvent>,
  into: Map<string, SubagentProgress> = new Map(),
): Map<string, SubagentProgress> {
  for (const event of events) {
    const content = isRecord(event.content) ? event.content : null;
    const taskId = content && typeof content.task_id === "string" ? content.task_id : null;
    if (!content || !taskId) continue;
    const at = Date.parse(event.created_at);
    const current = into.get(taskId) ?? empty(taskId);
    if (event.event_type === "subagent.start") {
      into.set(taskId, {
        ...current,
        description: text(content.description) ?? current.description,
        startedAt: Number.isNaN(at) ? null : at,
      });
    } else if (event.event_type === "subagent.step") {
      const line = text(content.text);
      if (line) into.set(taskId, { ...current, steps: [...current.steps, line] });
    } else if (event.event_type === "subagent.end") {
      const status = typeof content.status === "string" ? content.status : "";
      into.set(taskId, {
        ...current,
        state: EVENT_STATUSES[status] ?? "failed",
        endedAt: Number.isNaN(at) ? null : at,
        result: text(content.result) ?? current.result,
      });
    }
  }
  return into;
}

/** The `task` ToolMessage's `additional_kwargs.subagent_status` as a card state. */
export function stateFromStatus(status: unknown): SubagentState | null {
  return typeof status === "string" ? (EVENT_STATUSES[status] ?? null) : null;
}
