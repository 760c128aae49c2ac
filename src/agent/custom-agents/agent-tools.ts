import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import {
  AGENT_DESCRIPTION_MAX_CHARS,
  AGENT_SOUL_MAX_CHARS,
  type AgentDefinition,
} from "./agent-definition.js";
import type { CustomAgentStore } from "./custom-agent-store.js";

export interface AgentToolsContext {
  store: CustomAgentStore;
  /** The run's user (from the admitted run, never from the model). */
  owner: string;
  /** The run's custom agent (already validated and normalized), or null. */
  agentName: string | null;
  /** Whether a model of that name is configured. */
  knownModel: (name: string) => boolean;
  logger: Logger;
}

const LIST_MAX = 100;
const names = z.array(z.string().min(1).max(128)).max(LIST_MAX);
/** Strings a model sends for "unchanged"; treated as left out, as the reference does. */
const NULLISH_WORDS = new Set(["null", "none", "undefined"]);

/**
 * `setup_agent`: the end of a bootstrap run. It stores the agent the run was started for
 * (`agent_name`) with the SOUL.md and description the model wrote; again on a second call.
 * Without `agent_name` it sets the SOUL.md of the user's default agent.
 */
export function createSetupAgentTool(context: AgentToolsContext): StructuredToolInterface {
  return tool(
    async (input) => {
      if (input.soul.trim() === "") {
        return "Error: soul content is empty; refusing to create an agent with an empty SOUL.md.";
      }
      const { store, owner, agentName } = context;
      try {
        if (agentName === null) {
          await store.setDefaultSoul(owner, input.soul);
          return "The default agent's SOUL.md was saved.";
        }
        const fresh: AgentDefinition = {
          name: agentName,
          description: input.description,
          model: null,
          tool_groups: null,
          skills: input.skills ?? null,
          model_settings: null,
          thinking_enabled: null,
          reasoning_effort: null,
          soul: input.soul,
        };
        await store.update(
          owner,
          agentName,
          (current) => ({
            ...current,
            description: input.description,
            soul: input.soul,
            ...(input.skills !== undefined && input.skills !== null
              ? { skills: input.skills }
              : {}),
          }),
          fresh,
        );
        context.logger.info({ agent: agentName, owner }, "custom agent set up");
        return `Agent '${agentName}' created successfully!`;
      } catch (error) {
        return `Error: ${describeError(error)}`;
      }
    },
    {
      name: "setup_agent",
      description:
        "Create the custom agent this conversation is setting up: its SOUL.md (identity, purpose, style, boundaries) and a one-line description.",
      schema: z.object({
        soul: z
          .string()
          .max(AGENT_SOUL_MAX_CHARS)
          .describe("The full SOUL.md: the agent's personality and behaviour."),
        description: z
          .string()
          .max(AGENT_DESCRIPTION_MAX_CHARS)
          .describe("One line: what the agent does."),
        skills: names
          .nullish()
          .describe("Skills the agent may use; leave out for every enabled skill, [] for none."),
      }),
    },
  );
}

/**
 * `update_agent`: a custom agent persists changes to itself (bound only to runs of a custom
 * agent). Only the fields passed change; the rest are kept. Takes effect on the next run.
 */
export function createUpdateAgentTool(context: AgentToolsContext): StructuredToolInterface {
  return tool(
    async (raw) => {
      const { store, owner, agentName } = context;
      if (agentName === null) {
        return "Error: update_agent only works inside a custom agent's chat; there is no agent_name in this run. Use setup_agent to create an agent.";
      }
      const input = {
        soul: textOrUnset(raw.soul),
        description: textOrUnset(raw.description),
        model: textOrUnset(raw.model),
        skills: raw.skills ?? undefined,
        tool_groups: raw.tool_groups ?? undefined,
      };
      const given = Object.entries(input).filter(([, value]) => value !== undefined);
      if (given.length === 0) {
        return "Error: no fields provided. Pass at least one of: soul, description, skills, tool_groups, model; leave unchanged fields out.";
      }
      if (input.soul !== undefined && input.soul.trim() === "") {
        return "Error: soul content is empty; refusing to wipe the agent's SOUL.md. Leave soul out to keep it.";
      }
      if (input.model !== undefined && !context.knownModel(input.model)) {
        return `Error: unknown model '${input.model}'. Pass the name of a model configured under models:.`;
      }
      const changed: string[] = [];
      try {
        const current = await store.get(owner, agentName);
        if (current === null) {
          return `Error: agent '${agentName}' does not exist for the current user. Use setup_agent to create it first.`;
        }
        const next: AgentDefinition = { ...current };
        if (input.description !== undefined && input.description !== current.description) {
          next.description = input.description;
          changed.push("description");
        }
        if (input.model !== undefined && input.model !== current.model) {
          next.model = input.model;
          changed.push("model");
        }
        if (input.tool_groups !== undefined && !sameList(input.tool_groups, current.tool_groups)) {
          next.tool_groups = input.tool_groups;
          changed.push("tool_groups");
        }
        if (input.skills !== undefined && !sameList(input.skills, current.skills)) {
          next.skills = input.skills;
          changed.push("skills");
        }
        if (input.soul !== undefined) {
          next.soul = input.soul;
          changed.push("soul");
        }
        if (changed.length === 0) {
          return `No changes applied to agent '${agentName}'. The provided values matched the existing config.`;
        }
        // Re-applied over the latest stored version, so a concurrent edit of other fields stays.
        await store.update(owner, agentName, (latest) => {
          const merged: AgentDefinition = { ...latest };
          for (const field of changed) assignField(merged, next, field);
          return merged;
        });
      } catch (error) {
        return `Error: failed to update agent '${agentName}': ${describeError(error)}`;
      }
      context.logger.info({ agent: agentName, owner, changed }, "custom agent updated itself");
      return `Agent '${agentName}' updated successfully. Changed: ${changed.join(", ")}. The new configuration takes effect on the next user turn.`;
    },
    {
      name: "update_agent",
      description:
        "Persist changes to this custom agent: its SOUL.md, description, skills, tool groups or default model. Only the fields passed change.",
      schema: z.object({
        soul: z
          .string()
          .max(AGENT_SOUL_MAX_CHARS)
          .nullish()
          .describe("The full replacement SOUL.md (no patches)."),
        description: z.string().max(AGENT_DESCRIPTION_MAX_CHARS).nullish(),
        skills: names.nullish().describe("Skill whitelist; [] for none; leave out to keep."),
        tool_groups: names.nullish().describe("Tool-group whitelist; leave out to keep."),
        model: z.string().max(256).nullish().describe("A configured model's name."),
      }),
    },
  );
}

function textOrUnset(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return NULLISH_WORDS.has(value.trim().toLowerCase()) ? undefined : value;
}

function sameList(a: readonly string[], b: readonly string[] | null): boolean {
  return b !== null && a.length === b.length && a.every((item, index) => item === b[index]);
}

function assignField(target: AgentDefinition, source: AgentDefinition, field: string): void {
  if (field === "description") target.description = source.description;
  else if (field === "model") target.model = source.model;
  else if (field === "tool_groups") target.tool_groups = source.tool_groups;
  else if (field === "skills") target.skills = source.skills;
  else if (field === "soul") target.soul = source.soul;
}
