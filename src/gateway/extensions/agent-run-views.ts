import type { AgentRun, AgentThreadState } from "../../extensions/api/agent-runs.js";
import type { RunRow } from "../../ports/run-types.js";
import type { ApiThreadState } from "../state/thread-state.js";

/** A run row as a plugin sees it. */
export function toAgentRun(
  row: Pick<RunRow, "thread_id" | "run_id" | "status" | "assistant_id" | "stop_reason">,
): AgentRun {
  return {
    threadId: row.thread_id,
    runId: row.run_id,
    status: row.status,
    assistantId: row.assistant_id,
    stopReason: row.stop_reason,
  };
}

/** The thread's head as a plugin sees it (an empty thread: empty values, no checkpoint). */
export function toAgentThreadState(state: ApiThreadState): AgentThreadState {
  return {
    values: { ...state.values },
    next: [...state.next],
    interrupts: state.interrupts.map((interrupt) => interrupt.value),
    checkpointId: state.checkpoint_id,
  };
}
