import { isPlainObject } from "../../core/config/env-expansion.js";

/** Per-run choices the lead agent reads from a run's config (`context` wins over `configurable`). */
export interface LeadRunOptions {
  modelName: string | undefined;
  thinkingEnabled: boolean;
  reasoningEffort: string | undefined;
  /** `is_plan_mode`: adds the todo middleware and `write_todos`. */
  planMode: boolean;
  /** `subagent_enabled`: caps `task` calls (the `task` tool itself lands with sub-agents). */
  subagentEnabled: boolean;
  maxConcurrentSubagents: number | undefined;
  maxTotalSubagents: number | undefined;
  /** `non_interactive`: no `ask_clarification` tool. */
  nonInteractive: boolean;
  /** `agent_name`: the custom agent the run is for (as given; validated when loaded). */
  agentName?: string | undefined;
  /** `is_bootstrap`: the conversation that creates the custom agent `agentName`. */
  bootstrap?: boolean;
  /** Whether `thinking_enabled` was given (else a custom agent's default applies). */
  thinkingGiven?: boolean;
}

export function leadRunOptions(config: Record<string, unknown>): LeadRunOptions {
  const configurable = isPlainObject(config.configurable) ? config.configurable : {};
  const context = isPlainObject(config.context) ? config.context : {};
  const merged: Record<string, unknown> = { ...configurable, ...context };
  const modelName = stringOf(merged.model_name) ?? stringOf(merged.model);
  const thinking = merged.thinking_enabled;
  return {
    modelName,
    thinkingEnabled: typeof thinking === "boolean" ? thinking : true,
    reasoningEffort: stringOf(merged.reasoning_effort),
    planMode: merged.is_plan_mode === true,
    subagentEnabled: merged.subagent_enabled === true,
    maxConcurrentSubagents: numberOf(merged.max_concurrent_subagents),
    maxTotalSubagents: numberOf(merged.max_total_subagents),
    nonInteractive: merged.non_interactive === true,
    agentName: stringOf(merged.agent_name),
    bootstrap: merged.is_bootstrap === true,
    thinkingGiven: typeof thinking === "boolean",
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
