import { toJson } from "../../core/json/serialize.js";
import type { NewRunEvent } from "../../ports/run-event-store.js";
import {
  MAX_SUBAGENT_STEP_TEXT,
  SUBAGENT_TERMINAL_STATUSES,
  type SubagentTerminalStatus,
} from "../event-catalog.js";

const TERMINAL_CHUNKS: Record<string, string> = Object.fromEntries(
  SUBAGENT_TERMINAL_STATUSES.map((status) => [`task_${status}`, status]),
);

/**
 * Turns sub-agent progress chunks from the root `custom` stream into `subagent.*` events, kept
 * aside until finalization flushes them in one batch.
 */
export class SubagentEventBuffer {
  private readonly events: NewRunEvent[] = [];
  /** Tasks that started and have not ended: closed at finalization so every start has an end. */
  private readonly open = new Set<string>();

  constructor(
    private readonly threadId: string,
    private readonly runId: string,
    private readonly userId: string | null,
  ) {}

  get size(): number {
    return this.events.length;
  }

  /** Returns true when the chunk was a sub-agent chunk. */
  observe(chunk: unknown): boolean {
    if (typeof chunk !== "object" || chunk === null || Array.isArray(chunk)) return false;
    const data = chunk as Record<string, unknown>;
    const type = data.type;
    const taskId = typeof data.task_id === "string" ? data.task_id : null;
    if (typeof type !== "string" || taskId === null) return false;
    if (type === "task_started") {
      this.open.add(taskId);
      this.add(
        "subagent.start",
        { task_id: taskId, description: data.description ?? null },
        taskId,
      );
      return true;
    }
    if (type === "task_running") {
      const raw =
        typeof data.text === "string" ? data.text : JSON.stringify(toJson(data.message ?? ""));
      const truncated = raw.length > MAX_SUBAGENT_STEP_TEXT;
      this.add(
        "subagent.step",
        {
          task_id: taskId,
          message_index: typeof data.message_index === "number" ? data.message_index : null,
          kind: data.kind === "tool" ? "tool" : "ai",
          text: truncated ? raw.slice(0, MAX_SUBAGENT_STEP_TEXT) : raw,
          truncated,
        },
        taskId,
      );
      return true;
    }
    const status = TERMINAL_CHUNKS[type];
    if (status) {
      this.open.delete(taskId);
      this.add(
        "subagent.end",
        { task_id: taskId, status, result: toJson(data.result ?? null) },
        taskId,
      );
      return true;
    }
    return false;
  }

  private add(eventType: string, content: Record<string, unknown>, taskId: string): void {
    this.events.push({
      thread_id: this.threadId,
      run_id: this.runId,
      event_type: eventType,
      category: "subagent",
      content: toJson(content),
      metadata: { task_id: taskId },
      created_at: new Date().toISOString(),
      user_id: this.userId,
    });
  }

  /**
   * Hand over the buffered events (the buffer empties: a batch is attempted once). A task still
   * open when its run ends (cancelled or failed before the sub-agent could report) gets a
   * `subagent.end` with `closingStatus`, so readers never wait for an end that cannot come.
   */
  take(closingStatus: SubagentTerminalStatus): NewRunEvent[] {
    for (const taskId of this.open) {
      this.add(
        "subagent.end",
        { task_id: taskId, status: closingStatus, result: null, closed_by: "run_end" },
        taskId,
      );
    }
    this.open.clear();
    return this.events.splice(0);
  }
}
