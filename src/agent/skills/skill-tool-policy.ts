import { posix } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { type Command, isCommand } from "@langchain/langgraph";
import { contentText } from "../middlewares/conversation.js";
import type { AgentMiddleware, MiddlewareRuntime } from "../middlewares/types.js";
import { type Skill, skillContainerFile } from "./skill.js";
import { latestUserText } from "./skills-middleware.js";
import { resolveSlashSkill } from "./slash-activation.js";

/**
 * Tools an active skill's `allowed-tools` never takes away: reading files (and looking skills up)
 * is how the agent loads a skill and follows it, so the policy cannot lock it out of its own
 * instructions.
 */
export const ALWAYS_ALLOWED_TOOLS: ReadonlySet<string> = new Set(["read_file", "describe_skill"]);

/**
 * The tools a set of active skills allows, or null for no restriction. Null when no active skill
 * declares `allowed-tools`; once one does, a skill without the field contributes nothing (it
 * cannot lift another skill's restriction), and the always-allowed tools are added.
 */
export function allowedToolsFor(active: readonly Skill[]): ReadonlySet<string> | null {
  const declared = active.filter((skill) => skill.allowedTools !== null);
  if (declared.length === 0) return null;
  const allowed = new Set(ALWAYS_ALLOWED_TOOLS);
  for (const skill of declared) for (const tool of skill.allowedTools ?? []) allowed.add(tool);
  return allowed;
}

export interface SkillToolPolicyOptions {
  /** The run's user's enabled skills. */
  skills: readonly Skill[];
  /** Where skills appear in the sandbox (`skills.container_path`). */
  containerPath: string;
}

/**
 * Scopes the lead agent's tools to what its active skills declare in `allowed-tools` (reference
 * SkillToolPolicyMiddleware). Enabling a skill only makes it discoverable; a skill becomes active
 * for a run when the user slash-activates it (`/name …`), or when the agent reads its SKILL.md
 * with a `read_file` that succeeds. A slash-activated skill governs the whole run: reading another
 * skill cannot widen it. Tools outside the policy are not offered to the model, and a call to one
 * anyway is refused with an error the model can read; the tool never runs.
 */
export function createSkillToolPolicyMiddleware(options: SkillToolPolicyOptions): AgentMiddleware {
  const byContainerFile = new Map(
    options.skills.map((skill) => [skillContainerFile(skill, options.containerPath), skill]),
  );
  let slashSkill: Skill | null = null;
  const readSkills = new Map<string, Skill>();
  let recordedSignature = "";

  const activeSkills = (): Skill[] => (slashSkill ? [slashSkill] : [...readSkills.values()]);

  const policy = (runtime: MiddlewareRuntime): ReadonlySet<string> | null => {
    const active = activeSkills();
    const allowed = allowedToolsFor(active);
    const signature = allowed === null ? "" : [...allowed].sort().join(",");
    if (signature !== recordedSignature) {
      recordedSignature = signature;
      runtime.record("wrapModelCall", "skill_tool_policy", {
        skills: active.map((skill) => skill.name),
        source: slashSkill ? "slash" : "read_file",
        allowed_tools: allowed === null ? null : [...allowed].sort(),
      });
    }
    return allowed;
  };

  return {
    name: "SkillToolPolicyMiddleware",
    tag: "skill_tool_policy",

    async wrapModelCall(request, next, runtime) {
      if (slashSkill === null) {
        const text = latestUserText(request.messages);
        const activation = text === null ? null : resolveSlashSkill(text, options.skills);
        if (activation) slashSkill = activation.skill;
      }
      const allowed = policy(runtime);
      if (allowed === null) return next(request);
      return next({ ...request, tools: request.tools.filter((tool) => allowed.has(tool.name)) });
    },

    async wrapToolCall(request, next) {
      const name = request.toolCall.name;
      const allowed = allowedToolsFor(activeSkills());
      if (allowed !== null && !allowed.has(name)) {
        const skills = activeSkills()
          .map((skill) => skill.name)
          .join(", ");
        return new ToolMessage({
          content: `Error: Tool '${name}' is not allowed by the active skill policy (active skills: ${skills}; allowed tools: ${[...allowed].sort().join(", ")}). Use one of the allowed tools.`,
          tool_call_id: request.toolCall.id ?? "",
          name,
          status: "error",
        });
      }
      const result = await next(request);
      if (name === "read_file" && slashSkill === null && succeeded(result)) {
        const path = request.toolCall.args.path;
        const skill =
          typeof path === "string" ? byContainerFile.get(posix.normalize(path)) : undefined;
        if (skill) readSkills.set(skill.name, skill);
      }
      return result;
    },
  };
}

/**
 * A tool result whose message has no error status or `Error:` text. Sandbox tools may answer
 * with a Command carrying their ToolMessage (the first call records the sandbox id).
 */
function succeeded(result: unknown): boolean {
  const message = isCommand(result) ? commandToolMessage(result) : result;
  if (!ToolMessage.isInstance(message)) return false;
  return message.status !== "error" && !contentText(message.content).startsWith("Error:");
}

function commandToolMessage(command: Command): unknown {
  const update: unknown = command.update;
  if (typeof update !== "object" || update === null || !("messages" in update)) return null;
  const messages: unknown = update.messages;
  return Array.isArray(messages) ? messages.find((item) => ToolMessage.isInstance(item)) : null;
}
