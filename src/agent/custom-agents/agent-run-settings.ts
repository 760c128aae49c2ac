import type { ModelConfig } from "../../core/config/schema.js";
import type { LeadRunOptions } from "../lead-agent/run-options.js";
import type { AgentDefinition } from "./agent-definition.js";

/**
 * A custom agent's defaults layered under the run's own choices, in the reference's order:
 * what the request names wins, then the agent's setting, then the runtime default. (So the
 * agent's `model` applies to runs that name no `model_name`.)
 */
export function runOptionsWithAgent(
  run: LeadRunOptions,
  agent: AgentDefinition | null,
): LeadRunOptions {
  if (agent === null) return run;
  return {
    ...run,
    modelName: run.modelName ?? agent.model ?? undefined,
    thinkingEnabled:
      run.thinkingGiven !== true && agent.thinking_enabled !== null
        ? agent.thinking_enabled
        : run.thinkingEnabled,
    reasoningEffort: run.reasoningEffort ?? agent.reasoning_effort ?? undefined,
  };
}

/** The model entry with the agent's sampling overrides (temperature, max_tokens) on top. */
export function modelWithAgentSettings(
  model: ModelConfig,
  agent: AgentDefinition | null,
): ModelConfig {
  const settings = agent?.model_settings;
  if (!settings) return model;
  return {
    ...model,
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.max_tokens !== undefined ? { max_tokens: settings.max_tokens } : {}),
  };
}
