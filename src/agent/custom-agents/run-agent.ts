import type { StructuredToolInterface } from "@langchain/core/tools";
import { RunStartupError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { type AgentDefinition, agentNameProblem, normalizeAgentName } from "./agent-definition.js";
import { renderAgentPrompt } from "./agent-prompt.js";
import { createSetupAgentTool, createUpdateAgentTool } from "./agent-tools.js";
import type { CustomAgentStore } from "./custom-agent-store.js";

/** What a run's custom agent (or its absence) changes about the lead agent. */
export interface RunCustomAgent {
  /** The agent the run is for, or null (default agent, or a bootstrap run creating one). */
  definition: AgentDefinition | null;
  /** `setup_agent` in a bootstrap run, `update_agent` in a custom agent's run. */
  tools: StructuredToolInterface[];
  /** SOUL.md, self-update or setup instructions, USER.md; null when none apply. */
  prompt: string | null;
}

export interface RunCustomAgentOptions {
  /** Null: custom agents are not available to this factory (no document store). */
  store: CustomAgentStore | null;
  owner: string;
  /** `agent_name` of the run's context/configurable, as given. */
  agentName: string | undefined;
  /** `is_bootstrap`: the run is the creation conversation of `agentName`. */
  bootstrap: boolean;
  knownModel: (name: string) => boolean;
  logger: Logger;
}

/**
 * Loads the run's custom agent and the user's profile. An invalid or unknown `agent_name`
 * fails the run with a sentence saying so (the reference fails it too), rather than silently
 * running the default agent under the wrong identity.
 */
export async function customAgentForRun(options: RunCustomAgentOptions): Promise<RunCustomAgent> {
  const { store, owner, bootstrap } = options;
  const agentName = options.agentName === undefined ? null : checkedName(options.agentName);
  if (store === null) {
    if (agentName !== null || bootstrap) {
      throw new RunStartupError(
        "Custom agents are not available here: this agent factory has no document store.",
      );
    }
    return { definition: null, tools: [], prompt: null };
  }
  const toolContext = {
    store,
    owner,
    agentName,
    knownModel: options.knownModel,
    logger: options.logger,
  };
  const userProfile = await store.userProfile(owner);
  if (bootstrap) {
    return {
      definition: null,
      tools: [createSetupAgentTool(toolContext)],
      prompt: renderAgentPrompt({
        agentName,
        soul: null,
        bootstrap: true,
        canSelfUpdate: false,
        userProfile,
      }),
    };
  }
  if (agentName === null) {
    return {
      definition: null,
      tools: [],
      prompt: renderAgentPrompt({
        agentName: null,
        soul: await store.defaultSoul(owner),
        bootstrap: false,
        canSelfUpdate: false,
        userProfile,
      }),
    };
  }
  const definition = await store.get(owner, agentName);
  if (definition === null) {
    throw new RunStartupError(
      `Custom agent '${agentName}' not found. GET /api/agents lists your agents.`,
    );
  }
  return {
    definition,
    tools: [createUpdateAgentTool(toolContext)],
    prompt: renderAgentPrompt({
      agentName,
      soul: definition.soul,
      bootstrap: false,
      canSelfUpdate: true,
      userProfile,
    }),
  };
}

function checkedName(name: string): string {
  const problem = agentNameProblem(name);
  if (problem !== null) throw new RunStartupError(problem);
  return normalizeAgentName(name);
}

/** Tool groups of the tools Fawn builds in (a config `tools:` entry's `group` wins). */
const BUILT_IN_TOOL_GROUPS: Readonly<Record<string, string>> = {
  ls: "file:read",
  read_file: "file:read",
  glob: "file:read",
  grep: "file:read",
  write_file: "file:write",
  str_replace: "file:write",
  bash: "bash",
};

/**
 * The tools an agent's `tool_groups` allow: a tool in a group is kept only when its group is
 * listed; tools in no group (present_files, clarification, memory, skills, MCP) always stay, as
 * in the reference, where the whitelist filters the grouped `tools:` entries only.
 */
export function toolsForGroups<T extends { name: string }>(
  tools: readonly T[],
  groups: readonly string[] | null,
  configured: ReadonlyArray<{ name: string; group?: string | undefined }>,
): T[] {
  if (groups === null) return [...tools];
  const allowed = new Set(groups);
  const groupOf = new Map<string, string>(Object.entries(BUILT_IN_TOOL_GROUPS));
  for (const entry of configured) {
    if (entry.group) groupOf.set(entry.name, entry.group);
  }
  return tools.filter((tool) => {
    const group = groupOf.get(tool.name);
    return group === undefined || allowed.has(group);
  });
}
