import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Env } from "../../core/config/env-expansion.js";
import { isPlainObject } from "../../core/config/env-expansion.js";
import type { FawnConfig, ModelConfig } from "../../core/config/schema.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { DEFAULT_USER_ID, FawnPaths } from "../../core/paths.js";
import type { AgentRunsProvider } from "../../extensions/agent-runs-provider.js";
import type { LoadedExtensions } from "../../extensions/host/index.js";
import type { AgentFactory } from "../../ports/agent.js";
import type { DocumentStore } from "../../ports/document-store.js";
import {
  modelWithAgentSettings,
  runOptionsWithAgent,
} from "../custom-agents/agent-run-settings.js";
import { CustomAgentStore } from "../custom-agents/custom-agent-store.js";
import { customAgentForRun, toolsForGroups } from "../custom-agents/run-agent.js";
import { mcpToolCacheFor } from "../mcp/mcp-tool-cache.js";
import { acceptMcpTools } from "../mcp/merge-mcp-tools.js";
import { LeadMemory } from "../memory/lead-memory.js";
import {
  buildLeadMiddlewares,
  type LeadMiddlewareOptions,
  type MiddlewareConfigSections,
  parseLeadMiddlewareSettings,
} from "../middlewares/lead-middlewares.js";
import { createPluginMiddlewares } from "../middlewares/plugin-middleware/plugin-middleware.js";
import { subagentLimits } from "../middlewares/subagent-limit/subagent-limit-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { createChatModel } from "../models/create-chat-model.js";
import { selectModelConfig } from "../models/list-models.js";
import { buildSystemPrompt } from "../prompts/build-system-prompt.js";
import type { PromptSkill } from "../prompts/prompt-sections.js";
import { skillsForRun } from "../skills/lead-skills.js";
import { skillCatalogFromConfig } from "../skills/skill-catalog.js";
import { createSubagentSupport } from "../subagents/subagent-support.js";
import { createConfiguredTools } from "../tools/configured-tools.js";
import { createPluginTools } from "../tools/plugin-tools.js";
import {
  createSandboxTools,
  type SandboxToolsOptions,
} from "../tools/sandbox/create-sandbox-tools.js";
import { createThreadFileTools } from "../tools/thread-file-tools.js";
import { createLeadAgent } from "./create-lead-agent.js";
import { type LeadRunOptions, leadRunOptions } from "./run-options.js";
import { toStreamingAgent } from "./streaming-agent.js";

export interface LeadAgentFactoryOptions {
  config: Pick<FawnConfig, "models" | "home" | "max_recursion_limit"> &
    Partial<Pick<FawnConfig, "tools">> &
    MiddlewareConfigSections &
    Partial<Pick<FawnConfig, "skills" | "memory">> &
    Partial<Pick<FawnConfig, "sandbox">>;
  /** The saver the runtime reads thread state from; pass the same one to createFawn. */
  checkpointer?: BaseCheckpointSaver;
  /** Tools for every run (default: the thread file tools over `config.home`). */
  tools?: readonly StructuredToolInterface[];
  /** With a sandbox provider the default tools are the sandbox tools (bash, ls, read_file, …). */
  sandbox?: SandboxToolsOptions;
  /** A fixed system prompt; by default it is built per run (tools, limits, today's date). */
  systemPrompt?: string;
  /** Replaces the reference middleware chain (embedders, tests). */
  middlewares?: (run: LeadRunOptions) => AgentMiddleware[];
  /** Seams of the default chain (retry timing, fault injection, clock). */
  middlewareOptions?: Pick<LeadMiddlewareOptions, "modelRetry" | "externalizeSeams" | "clock">;
  /** Where provider keys are looked up when an entry has none (default process.env). */
  env?: Env;
  /** Folder relative `script:` paths are resolved against (default: the working directory). */
  baseDir?: string;
  /** `false`: no MCP tools (by default the servers of extensions_config.json join every run). */
  mcp?: false;
  /** Loaded plugins: their model tools and model hooks join every lead run. */
  extensions?: LoadedExtensions | null;
  /** Run handles plugin tools and hooks act through (for the run's user). */
  agentRuns?: AgentRunsProvider | null;
  logger?: Logger;
  /** Where users' custom agents and profiles are kept (`agent_name` runs need it). */
  documents?: DocumentStore | null;
}

/**
 * The AgentFactory the run worker calls once per run: picks the model (`model_name` from the
 * run's configurable/context, else the first configured model, else the offline demo), builds
 * the middleware chain for the run's options (plan mode, sub-agents, vision) and the lead-agent
 * graph around them. Config sections are validated here, once, so a bad value fails at startup.
 */
export function createLeadAgentFactory(options: LeadAgentFactoryOptions): AgentFactory {
  const logger = options.logger ?? rootLogger;
  const paths = new FawnPaths(options.config.home);
  const builtInTools =
    options.tools ??
    (options.sandbox
      ? createSandboxTools({ ...options.sandbox, paths })
      : createThreadFileTools({ paths }));
  // config.yaml `tools:` entries (web search, fetch, image search, capture) join every run.
  const allTools = [
    ...builtInTools,
    ...createConfiguredTools(options.config.tools ?? [], {
      logger,
      paths,
      reservedNames: builtInTools.map((tool) => tool.name),
      ...(options.env ? { env: options.env } : {}),
    }),
  ];
  const settings = parseLeadMiddlewareSettings(options.config);
  const skillCatalog = skillCatalogFromConfig(options.config, {
    ...(options.baseDir ? { baseDir: options.baseDir } : {}),
    documents: options.documents ?? null,
    logger,
  });
  const customAgents = options.documents ? new CustomAgentStore(options.documents) : null;
  const knownModel = (name: string) => !selectModelConfig(options.config, name).fellBack;
  const memory = new LeadMemory({
    home: options.config.home,
    documents: options.documents ?? null,
    config: options.config.memory,
    logger,
  });
  // Plugin tools read the run's user and thread per call, so one set serves every run.
  const pluginTools = options.extensions
    ? createPluginTools({ extensions: options.extensions, agentRuns: options.agentRuns ?? null })
    : [];
  const pluginMiddlewares = options.extensions
    ? createPluginMiddlewares(options.extensions, options.agentRuns ?? null)
    : [];
  // MCP tool names already reported as shadowed (warned once, not on every run).
  const shadowedMcpTools = new Set<string>();
  // Models hold no per-run state, so one instance per (model, thinking, effort) serves every run.
  const models = new Map<string, Promise<BaseChatModel>>();

  const buildModel = (
    model: ModelConfig,
    thinkingEnabled: boolean,
    reasoningEffort: string | undefined,
  ): Promise<BaseChatModel> => {
    const key = JSON.stringify([
      model.name,
      thinkingEnabled,
      reasoningEffort ?? null,
      // A custom agent's sampling overrides make a distinct model.
      model.temperature ?? null,
      model.max_tokens ?? null,
    ]);
    let created = models.get(key);
    if (!created) {
      created = createChatModel(model, {
        thinkingEnabled,
        reasoningEffort,
        ...(options.env ? { env: options.env } : {}),
        ...(options.baseDir ? { baseDir: options.baseDir } : {}),
      });
      // A failed build (missing key, bad script) is retried by the next run, not cached.
      created.catch(() => models.delete(key));
      models.set(key, created);
    }
    return created;
  };

  /** A named model for middleware side calls (title, summary): thinking off, no fallback. */
  const resolveModel = (name: string): Promise<BaseChatModel> => {
    const { model, fellBack } = selectModelConfig(options.config, name);
    if (fellBack) return Promise.reject(new Error(`No model named "${name}" is configured.`));
    return buildModel(model, false, undefined);
  };

  // The `task` tool is built per run (it needs the run's model); the types are read once here.
  const subagents = createSubagentSupport({
    config: options.config,
    sandboxKind: options.sandbox?.provider.kind ?? null,
    buildModel: (model) => buildModel(model, false, undefined),
    middlewareOptions: { settings, paths, ...options.middlewareOptions },
    logger,
  });

  return async ({ config, checkpointer: runCheckpointer, logger: runLogger }) => {
    // The run's own logger (bound to its ids) for everything this run logs.
    const log = runLogger ?? logger;
    const userId = runUserId(config);
    const asked = leadRunOptions(config);
    // The run's custom agent (`agent_name`): its defaults, tools, SOUL.md and the user's profile.
    const custom = await customAgentForRun({
      store: customAgents,
      owner: userId,
      agentName: asked.agentName,
      bootstrap: asked.bootstrap === true,
      knownModel,
      logger: log,
    });
    const agent = custom.definition;
    const run = runOptionsWithAgent(asked, agent);
    // The run's fenced view of the runtime's saver, when the runtime handed one.
    const checkpointer = runCheckpointer ?? options.checkpointer;
    const selected = selectModelConfig(options.config, run.modelName);
    const { fellBack } = selected;
    const model = modelWithAgentSettings(selected.model, agent);
    if (fellBack) {
      log.warn(
        { requested: run.modelName, using: model.name },
        "unknown model requested; using the default model",
      );
    }
    const thinkingEnabled = run.thinkingEnabled && model.supports_thinking;
    // extensions_config.json is re-read per build; servers whose entry is unchanged are reused.
    const mcpTools =
      options.mcp === false
        ? []
        : await mcpToolCacheFor({
            home: options.config.home,
            logger,
            ...(options.env ? { env: options.env } : {}),
          }).tools();
    const skills = await skillsForRun({
      catalog: skillCatalog,
      paths,
      userId,
      inSandbox: options.sandbox !== undefined && options.tools === undefined,
      deferred: options.config.skills?.deferred_discovery === true,
      only: agent?.skills ?? null,
      logger: log,
    });
    // A custom agent's `tool_groups` whitelist narrows the grouped tools.
    const tools = toolsForGroups(allTools, agent?.tool_groups ?? null, options.config.tools ?? []);
    const middlewares =
      options.middlewares?.(run) ??
      buildLeadMiddlewares({
        settings,
        paths,
        run,
        supportsVision: model.supports_vision,
        contextWindow: model.context_window,
        ...options.middlewareOptions,
        skills: skills.middleware,
        skillToolPolicy: skills.toolPolicy,
        memory: memory.runMiddleware(),
        plugins: pluginMiddlewares,
      });
    const leadOnlyTools = [...memory.tools(), ...skills.tools, ...pluginTools, ...custom.tools];
    // MCP tools come last: every other tool keeps its name, first one wins.
    const acceptedMcpTools = acceptMcpTools(
      [
        ...[...tools, ...leadOnlyTools].map((tool) => tool.name),
        ...(run.subagentEnabled ? ["task"] : []),
        ...middlewares.flatMap((middleware) => middleware.tools ?? []).map((tool) => tool.name),
      ],
      mcpTools,
      shadowedMcpTools,
      logger,
    );
    // Memory and skill-lookup tools are the lead agent's own: sub-agents inherit `tools` and
    // the MCP tools only.
    const inherited = [...tools, ...acceptedMcpTools];
    const runTools = [
      ...tools,
      ...(run.subagentEnabled ? [subagents.taskTool(model, inherited, skills.prompt, log)] : []),
      ...leadOnlyTools,
      ...acceptedMcpTools,
    ];
    const graph = createLeadAgent({
      model: await buildModel(model, thinkingEnabled, run.reasoningEffort),
      tools: runTools,
      middlewares,
      systemPrompt:
        options.systemPrompt ??
        leadSystemPrompt(runTools, middlewares, run, settings, {
          skills: skills.prompt,
          skillsDeferred: skills.deferred,
          memory: await memory.promptBlock(userId),
          agentName: agent?.name,
          agentPrompt: custom.prompt,
        }),
      resolveModel,
      logger: log,
      ...(checkpointer ? { checkpointer } : {}),
    });
    return toStreamingAgent(graph, {
      ...(options.config.max_recursion_limit
        ? { maxRecursionLimit: options.config.max_recursion_limit }
        : {}),
    });
  };
}

function leadSystemPrompt(
  tools: readonly StructuredToolInterface[],
  middlewares: readonly AgentMiddleware[],
  run: LeadRunOptions,
  settings: { maxTotalSubagents: number },
  perUser: {
    skills: readonly PromptSkill[];
    skillsDeferred: boolean;
    memory: string | null;
    /** The custom agent's name and prompt blocks (agent/custom-agents). */
    agentName?: string | undefined;
    agentPrompt: string | null;
  },
): string {
  const all = [...tools, ...middlewares.flatMap((middleware) => middleware.tools ?? [])];
  const seen = new Set<string>();
  const listed = all.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
  return buildSystemPrompt({
    tools: listed.map((tool) => ({ name: tool.name, description: tool.description })),
    skills: perUser.skills,
    skillsDeferred: perUser.skillsDeferred,
    memory: perUser.memory,
    ...(perUser.agentName ? { agentName: perUser.agentName } : {}),
    agentPrompt: perUser.agentPrompt,
    subagents: run.subagentEnabled
      ? subagentLimits({
          ...(run.maxConcurrentSubagents !== undefined
            ? { maxConcurrent: run.maxConcurrentSubagents }
            : {}),
          maxTotal: run.maxTotalSubagents ?? settings.maxTotalSubagents,
        })
      : null,
  });
}

/** The run's user (the worker stamps it from the admitted run), for skills and memory. */
function runUserId(config: Record<string, unknown>): string {
  const configurable = isPlainObject(config.configurable) ? config.configurable : {};
  const context = isPlainObject(config.context) ? config.context : {};
  const userId = context.user_id ?? configurable.user_id;
  return typeof userId === "string" && userId !== "" ? userId : DEFAULT_USER_ID;
}
