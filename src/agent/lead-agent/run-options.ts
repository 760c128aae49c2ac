import { isPlainObject } from "../../core/config/env-expansion.js";

/** Per-run choices the lead agent reads from a run's config (`context` wins over `configurable`). */
export interface LeadRunOptions {
  modelName: string | undefined;
  thinkingEnabled: boolean;
  reasoningEffort: string | undefined;
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
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
