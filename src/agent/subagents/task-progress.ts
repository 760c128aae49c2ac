import type { AIMessage } from "@langchain/core/messages";
import { contentText } from "../middlewares/conversation.js";
import type { SubagentOutcome, SubagentTokenUsage } from "./task-result.js";

/**
 * The `task` tool's progress on LangGraph's `custom` stream: `task_started`,
 * one `task_running` per new AI message of the sub-agent, then one terminal event. The run
 * worker turns these into `subagent.start` / `subagent.step` / `subagent.end` run events
 * (runtime/worker/subagent-events.ts), so the field names here are that contract.
 */
export type ProgressEvent = Record<string, unknown> & { type: string; task_id: string };

export interface TaskProgress {
  started(description: string): void;
  running(message: AIMessage, index: number, usage: SubagentTokenUsage | null): void;
  ended(outcome: SubagentOutcome): void;
}

const TERMINAL_TYPES: Record<SubagentOutcome["status"], string> = {
  completed: "task_completed",
  failed: "task_failed",
  cancelled: "task_cancelled",
  timed_out: "task_timed_out",
};

const MAX_ARGS_CHARS = 200;

/** Progress of one `task` call through the graph's stream writer (absent: nobody listens). */
export function taskProgress(
  writer: ((chunk: unknown) => void) | undefined,
  taskId: string,
  modelName: string,
): TaskProgress {
  const emit = (event: ProgressEvent) => {
    if (!writer) return;
    try {
      writer(event);
    } catch {
      // Progress is a view of the work, never a reason for it to fail (e.g. a closed stream).
    }
  };
  return {
    started(description) {
      emit({ type: "task_started", task_id: taskId, description, model_name: modelName });
    },
    running(message, index, usage) {
      emit({
        type: "task_running",
        task_id: taskId,
        kind: "ai",
        message: stepMessage(message),
        text: stepText(message),
        message_index: index,
        total_messages: index,
        ...(usage ? { usage } : {}),
        model_name: modelName,
      });
    },
    ended(outcome) {
      emit({
        type: TERMINAL_TYPES[outcome.status],
        task_id: taskId,
        ...(outcome.status === "completed" ? { result: outcome.result ?? "" } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.stopReason ? { stop_reason: outcome.stopReason } : {}),
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        model_name: modelName,
      });
    },
  };
}

/** A plain-JSON view of an AI message (what a client renders for one step). */
function stepMessage(message: AIMessage): Record<string, unknown> {
  return {
    type: "ai",
    id: message.id ?? null,
    content: contentText(message.content),
    tool_calls: (message.tool_calls ?? []).map((call) => ({
      id: call.id ?? null,
      name: call.name,
      args: call.args,
    })),
  };
}

/** One readable line per step: the text, then each tool call with its (shortened) arguments. */
function stepText(message: AIMessage): string {
  const lines = [contentText(message.content).trim()].filter((line) => line !== "");
  for (const call of message.tool_calls ?? []) {
    const args = JSON.stringify(call.args);
    const shown = args.length > MAX_ARGS_CHARS ? `${args.slice(0, MAX_ARGS_CHARS)}…` : args;
    lines.push(`→ ${call.name}(${shown})`);
  }
  return lines.join("\n");
}
