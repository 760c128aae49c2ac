import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import { contentText, isUserMessage } from "../middlewares/conversation.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { ORIGINAL_USER_CONTENT_KEY } from "../middlewares/uploads/uploads-middleware.js";
import { SKILL_FILE, type Skill, skillContainerFile } from "./skill.js";
import { syncThreadSkillsView } from "./skills-view.js";
import { renderActivatedSkill, resolveSlashSkill } from "./slash-activation.js";

export interface SkillsMiddlewareOptions {
  paths: FawnPaths;
  /** The run's user's enabled skills (the factory loads them once per run). */
  skills: readonly Skill[];
  /** Where skills appear in the sandbox (`skills.container_path`). */
  containerPath: string;
  /** Rebuild the thread's skills view before the run (only when tools run in a sandbox). */
  projectView: boolean;
  logger?: Logger;
}

/**
 * Skills for one run: before the agent starts, the thread's skills view is made to hold exactly
 * the enabled skills (the sandbox mounts it at /mnt/skills); on each model call, a `/skill-name`
 * command in the latest user message adds that skill's SKILL.md to the request (reference
 * SkillActivationMiddleware). The injection is request-only, never written to the thread.
 */
export function createSkillsMiddleware(options: SkillsMiddlewareOptions): AgentMiddleware {
  const logger = (options.logger ?? rootLogger).child({ component: "skills" });
  const contents = new Map<string, Promise<string | null>>();
  let recordedActivation: string | null = null;

  const skillText = (skill: Skill): Promise<string | null> => {
    let loaded = contents.get(skill.name);
    if (!loaded) {
      const source = skill.stored
        ? Promise.resolve(skill.stored.content)
        : skill.hostDir === null
          ? Promise.reject(new Error("the skill has no files"))
          : readFile(join(skill.hostDir, SKILL_FILE), "utf8");
      loaded = source.catch((error: unknown) => {
        logger.warn(
          { skill: skill.name, error: describeError(error) },
          "slash-activated skill could not be read",
        );
        return null;
      });
      contents.set(skill.name, loaded);
    }
    return loaded;
  };

  return {
    name: "SkillsMiddleware",
    tag: "skills",

    async beforeAgent(_state, runtime) {
      if (!options.projectView || !runtime.threadId) return undefined;
      const scope = { userId: runtime.userId, threadId: runtime.threadId };
      try {
        const changes = await syncThreadSkillsView(
          options.paths,
          scope,
          options.skills,
          logger,
          runtime.config.signal,
        );
        runtime.record("beforeAgent", "skills_view_synced", {
          skills: options.skills.map((skill) => skill.name),
          ...changes,
        });
      } catch (error) {
        // Stopped by the run's cancellation: the graph ends the run itself.
        if (runtime.config.signal?.aborted) return undefined;
        // Without a fresh view the agent still runs; it may see an outdated skill list.
        logger.warn({ ...scope, error: describeError(error) }, "skills view sync failed");
      }
      return undefined;
    },

    async wrapModelCall(request, next, runtime) {
      const text = latestUserText(request.messages);
      const activation = text === null ? null : resolveSlashSkill(text, options.skills);
      if (!activation) return next(request);
      const content = await skillText(activation.skill);
      if (content === null) return next(request);
      const containerFile = skillContainerFile(activation.skill, options.containerPath);
      if (recordedActivation !== activation.skill.name) {
        recordedActivation = activation.skill.name;
        runtime.record("wrapModelCall", "skill_activated", {
          name: activation.skill.name,
          path: containerFile,
        });
      }
      const block = renderActivatedSkill(activation.skill, content, containerFile);
      return next({
        ...request,
        systemPrompt: request.systemPrompt ? `${request.systemPrompt}\n\n${block}` : block,
      });
    },
  };
}

/** What the user typed last (before the uploads block was prepended), or null. */
export function latestUserText(messages: readonly BaseMessage[]): string | null {
  const message = messages.findLast((candidate) => isUserMessage(candidate));
  if (!message) return null;
  const original: unknown = message.additional_kwargs?.[ORIGINAL_USER_CONTENT_KEY];
  return typeof original === "string" ? original : contentText(message.content);
}
