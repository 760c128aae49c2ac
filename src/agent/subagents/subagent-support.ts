import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { FawnConfig, ModelConfig } from "../../core/config/schema.js";
import type { Logger } from "../../core/logger.js";
import type { SandboxProviderKind } from "../../sandbox/sandbox-provider.js";
import { selectModelConfig } from "../models/list-models.js";
import type { PromptSkill } from "../prompts/prompt-sections.js";
import {
  buildSubagentMiddlewares,
  type SubagentMiddlewareOptions,
} from "./subagent-middlewares.js";
import { createSubagentRegistry, type SubagentRegistry } from "./subagent-registry.js";
import { INHERIT_MODEL } from "./subagent-type.js";
import { createTaskTool, type SubagentModel } from "./task-tool.js";

export interface SubagentSupportOptions {
  config: Pick<FawnConfig, "models"> & Partial<Pick<FawnConfig, "subagents" | "sandbox">>;
  /** The sandbox provider the tools run in; null when the agent has no sandbox (no bash). */
  sandboxKind: SandboxProviderKind | null;
  /** Builds a configured model with thinking off (sub-agents do not think aloud). */
  buildModel(model: ModelConfig): Promise<BaseChatModel>;
  middlewareOptions: SubagentMiddlewareOptions;
  logger?: Logger;
}

export interface SubagentSupport {
  registry: SubagentRegistry;
  /** The `task` tool of one run: sub-agents inherit that run's model and tools. */
  taskTool(
    runModel: ModelConfig,
    runTools: readonly StructuredToolInterface[],
    skills?: readonly PromptSkill[],
    /** The run's logger (bound to its ids); default: the one support was set up with. */
    runLogger?: Logger,
  ): StructuredToolInterface;
}

/**
 * What the lead-agent factory needs for sub-agents, set up once: the types of config.yaml
 * (validated at startup) and whether `bash` may run here. The `task` tool itself is built per
 * run, since it depends on the run's model and tools.
 */
export function createSubagentSupport(options: SubagentSupportOptions): SubagentSupport {
  const { config, sandboxKind } = options;
  // Commands may run when the sandbox confines them, or on the host when explicitly allowed.
  const bashAllowed =
    sandboxKind !== null && (sandboxKind !== "local" || config.sandbox?.allow_host_bash === true);
  const registry = createSubagentRegistry(config.subagents, { bashAllowed });
  const subagentModelOf = async (model: ModelConfig): Promise<SubagentModel> => ({
    model: await options.buildModel(model),
    name: model.name,
    supportsVision: model.supports_vision,
    contextWindow: model.context_window,
  });
  return {
    registry,
    taskTool(runModel, runTools, skills = [], runLogger) {
      const logger = runLogger ?? options.logger;
      return createTaskTool({
        registry,
        parentTools: runTools,
        skills,
        resolveModel: (name) => {
          if (name === INHERIT_MODEL) return subagentModelOf(runModel);
          const { model, fellBack } = selectModelConfig(config, name);
          if (fellBack) return Promise.reject(new Error(`No model named "${name}" is configured.`));
          return subagentModelOf(model);
        },
        middlewares: (model) =>
          buildSubagentMiddlewares({
            ...options.middlewareOptions,
            supportsVision: model.supportsVision,
            contextWindow: model.contextWindow,
          }),
        ...(logger ? { logger } : {}),
      });
    },
  };
}
