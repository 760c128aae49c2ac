import { type SubagentsConfig, subagentsConfigSchema } from "../../core/config/schema.js";
import { parseConfigSection } from "../middlewares/config-section.js";
import { BASH_SUBAGENT, BUILTIN_SUBAGENTS } from "./builtin-subagents.js";
import { INHERIT_MODEL, type SubagentType } from "./subagent-type.js";

export interface SubagentRegistry {
  /** Type names the lead agent is offered (`bash` only where commands may run). */
  readonly available: readonly string[];
  /** False when `bash` would run unconfined on the host and that is not allowed. */
  readonly bashAllowed: boolean;
  /** A type with config.yaml's overrides applied, or null when no such type exists. */
  resolve(name: string): SubagentType | null;
}

export interface SubagentRegistryOptions {
  bashAllowed: boolean;
}

/**
 * The sub-agent types of a deployment: the built-ins, then `subagents.custom_agents` (a custom
 * type cannot shadow a built-in). Limits layer like the reference: `agents.<name>` wins; the
 * global `timeout_seconds` / `max_turns` apply to built-ins only, since a custom type states its own.
 */
export function createSubagentRegistry(
  section: unknown,
  options: SubagentRegistryOptions,
): SubagentRegistry {
  const config = parseConfigSection(subagentsConfigSchema, section, "subagents");
  const types = new Map<string, SubagentType>();
  for (const builtin of BUILTIN_SUBAGENTS)
    types.set(builtin.name, withOverrides(builtin, config, true));
  for (const [name, custom] of Object.entries(config.custom_agents)) {
    if (types.has(name)) continue;
    const type: SubagentType = {
      name,
      description: custom.description,
      systemPrompt: custom.system_prompt,
      tools: custom.tools ?? null,
      skills: custom.skills ?? null,
      disallowedTools: custom.disallowed_tools ?? [],
      model: custom.model,
      maxTurns: custom.max_turns,
      timeoutSeconds: custom.timeout_seconds,
    };
    types.set(name, withOverrides(type, config, false));
  }
  const available = [...types.keys()].filter(
    (name) => name !== BASH_SUBAGENT || options.bashAllowed,
  );
  return {
    available,
    bashAllowed: options.bashAllowed,
    resolve: (name) => types.get(name) ?? null,
  };
}

function withOverrides(
  type: SubagentType,
  config: SubagentsConfig,
  builtin: boolean,
): SubagentType {
  const override = config.agents[type.name];
  const globalTimeout = builtin ? config.timeout_seconds : undefined;
  const globalTurns = builtin ? config.max_turns : undefined;
  return {
    ...type,
    timeoutSeconds: override?.timeout_seconds ?? globalTimeout ?? type.timeoutSeconds,
    maxTurns: override?.max_turns ?? globalTurns ?? type.maxTurns,
    model: override?.model ?? type.model ?? INHERIT_MODEL,
    // `agents.<name>.skills` narrows further: a skill must be allowed by both lists.
    skills: intersectSkills(type.skills, override?.skills ?? null),
  };
}

function intersectSkills(
  a: readonly string[] | null,
  b: readonly string[] | null,
): readonly string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.filter((name) => b.includes(name));
}
