import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { FawnPaths } from "../../core/paths.js";
import type { AgentFactory } from "../../runtime/worker/run-context.js";
import { createChatModel } from "../models/create-chat-model.js";
import { selectModelConfig } from "../models/list-models.js";
import { createThreadFileTools } from "../tools/thread-file-tools.js";
import { createLeadAgent } from "./create-lead-agent.js";
import { leadRunOptions } from "./run-options.js";
import { toStreamingAgent } from "./streaming-agent.js";
import { buildLeadSystemPrompt } from "./system-prompt.js";

export interface LeadAgentFactoryOptions {
  config: Pick<FawnConfig, "models" | "home" | "max_recursion_limit">;
  /** The saver the runtime reads thread state from; pass the same one to createFawn. */
  checkpointer?: BaseCheckpointSaver;
  /** Tools for every run (default: the thread file tools over `config.home`). */
  tools?: readonly StructuredToolInterface[];
  systemPrompt?: string;
  /** Where provider keys are looked up when an entry has none (default process.env). */
  env?: Env;
  /** Folder relative `script:` paths are resolved against (default: the working directory). */
  baseDir?: string;
  logger?: Logger;
}

/**
 * The AgentFactory the run worker calls once per run: picks the model (`model_name` from the
 * run's configurable/context, else the first configured model, else the offline demo), then
 * builds the lead-agent graph around it.
 */
export function createLeadAgentFactory(options: LeadAgentFactoryOptions): AgentFactory {
  const logger = options.logger ?? rootLogger;
  const tools =
    options.tools ?? createThreadFileTools({ paths: new FawnPaths(options.config.home) });
  const systemPrompt = options.systemPrompt ?? buildLeadSystemPrompt();
  // Models hold no per-run state, so one instance per (model, thinking, effort) serves every run.
  const models = new Map<string, Promise<BaseChatModel>>();

  const modelFor = (config: Record<string, unknown>): Promise<BaseChatModel> => {
    const run = leadRunOptions(config);
    const { model, fellBack } = selectModelConfig(options.config, run.modelName);
    if (fellBack) {
      logger.warn(
        { requested: run.modelName, using: model.name },
        "unknown model requested; using the default model",
      );
    }
    const thinkingEnabled = run.thinkingEnabled && model.supports_thinking;
    const key = JSON.stringify([model.name, thinkingEnabled, run.reasoningEffort ?? null]);
    let created = models.get(key);
    if (!created) {
      created = createChatModel(model, {
        thinkingEnabled,
        reasoningEffort: run.reasoningEffort,
        ...(options.env ? { env: options.env } : {}),
        ...(options.baseDir ? { baseDir: options.baseDir } : {}),
      });
      // A failed build (missing key, bad script) is retried by the next run, not cached.
      created.catch(() => models.delete(key));
      models.set(key, created);
    }
    return created;
  };

  return async ({ config }) => {
    const graph = createLeadAgent({
      model: await modelFor(config),
      tools,
      systemPrompt,
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
    });
    return toStreamingAgent(graph, {
      ...(options.config.max_recursion_limit
        ? { maxRecursionLimit: options.config.max_recursion_limit }
        : {}),
    });
  };
}
