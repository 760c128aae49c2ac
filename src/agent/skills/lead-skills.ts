import type { StructuredToolInterface } from "@langchain/core/tools";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import type { PromptSkill } from "../prompts/prompt-sections.js";
import { createDescribeSkillTool } from "./describe-skill-tool.js";
import type { Skill } from "./skill.js";
import type { SkillCatalog } from "./skill-catalog.js";
import { createSkillToolPolicyMiddleware } from "./skill-tool-policy.js";
import { createSkillsMiddleware } from "./skills-middleware.js";

export interface RunSkills {
  /** Listed in the system prompt (empty when the tools cannot read /mnt/skills). */
  prompt: PromptSkill[];
  middleware: AgentMiddleware;
  /** Scopes tools to the active skills' `allowed-tools`. */
  toolPolicy: AgentMiddleware;
  /** The prompt lists names only (`skills.deferred_discovery`). */
  deferred: boolean;
  /** `describe_skill` when discovery is deferred, else none. */
  tools: StructuredToolInterface[];
}

/**
 * What the lead agent needs from skills for one run: the user's enabled skills, loaded once, for
 * the prompt's list and for the skills middleware. `inSandbox`: tools run in a sandbox, which
 * mounts the thread's skills view at /mnt/skills; without one the model cannot read SKILL.md
 * files, so none are listed (a `/skill-name` command still brings one in).
 */
export async function skillsForRun(options: {
  catalog: SkillCatalog;
  paths: FawnPaths;
  userId: string;
  inSandbox: boolean;
  /** `skills.deferred_discovery`. */
  deferred?: boolean;
  /** A custom agent's skill whitelist: only these of the enabled skills (null: all). */
  only?: readonly string[] | null;
  logger?: Logger;
}): Promise<RunSkills> {
  const logger = options.logger ?? rootLogger;
  let enabled: Skill[] = [];
  try {
    enabled = await options.catalog.enabled(options.userId);
  } catch (error) {
    // A broken skills folder must not stop the agent; it runs without skills.
    logger.warn({ error: describeError(error) }, "skills could not be loaded; running without");
  }
  const only = options.only;
  if (only !== undefined && only !== null) {
    enabled = enabled.filter((skill) => only.includes(skill.name));
  }
  const deferred = options.deferred === true && options.inSandbox && enabled.length > 0;
  return {
    deferred,
    tools: deferred ? [createDescribeSkillTool(enabled, options.catalog.containerPath)] : [],
    prompt: options.inSandbox
      ? enabled.map((skill) => ({
          name: skill.name,
          description: skill.description,
          location: options.catalog.containerFile(skill),
        }))
      : [],
    middleware: createSkillsMiddleware({
      paths: options.paths,
      skills: enabled,
      containerPath: options.catalog.containerPath,
      projectView: options.inSandbox,
      logger,
    }),
    toolPolicy: createSkillToolPolicyMiddleware({
      skills: enabled,
      containerPath: options.catalog.containerPath,
    }),
  };
}
