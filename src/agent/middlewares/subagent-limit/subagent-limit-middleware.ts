import { appendText, currentExchange, isAIMessage, withAIFields } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";

export const TASK_TOOL = "task";

export interface SubagentLimitOptions {
  /** `task` calls kept per model answer (reference default 3, clamped 1..4). */
  maxConcurrent?: number;
  /** `task` calls per run (`subagents.max_total_per_run`, default 6, clamped 1..50). */
  maxTotal?: number;
}

/**
 * Caps sub-agent delegation: of one answer's `task` calls at most
 * `min(max_concurrent, max_total − delegations so far in this run)` are kept and the rest
 * dropped before they run; with no budget left, the answer also says why nothing was started
 * (and, having no calls left, it ends the turn). Earlier delegations are counted from the `delegations` ledger and from the
 * exchange's own `task` calls, whichever is larger.
 */
export function createSubagentLimitMiddleware(options: SubagentLimitOptions = {}): AgentMiddleware {
  const { maxConcurrent, maxTotal } = subagentLimits(options);
  return {
    name: "SubagentLimitMiddleware",
    tag: "subagent_limit",
    async afterModel(state, runtime) {
      const last = state.messages.at(-1);
      if (!isAIMessage(last)) return undefined;
      const calls = last.tool_calls ?? [];
      const tasks = calls.filter((call) => call.name === TASK_TOOL);
      if (tasks.length === 0) return undefined;
      const inLedger = state.delegations.filter((d) => d.run_id === runtime.runId).length;
      const inExchange = currentExchange(state.messages)
        .slice(0, -1)
        .filter(isAIMessage)
        .flatMap((m) => m.tool_calls ?? [])
        .filter((call) => call.name === TASK_TOOL).length;
      const allowed = Math.max(
        0,
        Math.min(maxConcurrent, maxTotal - Math.max(inLedger, inExchange)),
      );
      if (tasks.length <= allowed) return undefined;
      const kept = new Set(tasks.slice(0, allowed).map((call) => call.id));
      const dropped = tasks.filter((call) => !kept.has(call.id)).map((call) => call.id ?? "");
      runtime.record("afterModel", "dropped_task_calls", { kept: allowed, dropped });
      const exhausted = allowed === 0;
      return {
        update: {
          messages: [
            withAIFields(last, {
              tool_calls: calls.filter((call) => call.name !== TASK_TOOL || kept.has(call.id)),
              ...(exhausted
                ? {
                    content: appendText(
                      last.content,
                      `[SUBAGENT LIMIT REACHED] This run may start at most ${maxTotal} sub-agent tasks and has used them all, so the remaining delegations were not started.`,
                    ),
                  }
                : {}),
            }),
          ],
        },
      };
    },
  };
}

/** The effective limits, clamped as the reference does; the system prompt states the same. */
export function subagentLimits(options: SubagentLimitOptions): Required<SubagentLimitOptions> {
  return {
    maxConcurrent: clamp(options.maxConcurrent ?? 3, 1, 4),
    maxTotal: clamp(options.maxTotal ?? 6, 1, 50),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(value)));
}
