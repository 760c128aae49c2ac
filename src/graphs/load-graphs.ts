import { ConfigError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { AgentFactory, StreamingAgent } from "../ports/agent.js";
import type { RecursionLimits } from "../ports/agent-stream-options.js";
import { LEAD_AGENT_GRAPH_ID, type ServedGraph } from "../ports/graph-catalog.js";
import { graphAgent } from "./graph-agent.js";
import { type GraphSpec, parseGraphSpec } from "./graph-spec.js";
import { type LangGraphProject, readLangGraphJson } from "./langgraph-json.js";
import { registerSdkLogger } from "./platform-globals.js";
import { resolveGraph } from "./resolve-graph.js";
import { type GraphDefaults, servedCompiledGraph } from "./served-compiled-graph.js";

/** A config.yaml `graphs:` entry: `./file.ts:export`, or with a description. */
export type ConfigGraphEntry = string | { path: string; description?: string };

export interface GraphSources {
  /** config.yaml `graphs:`, relative to `configDir` (the config file's folder). */
  configGraphs?: Record<string, ConfigGraphEntry>;
  configDir: string;
  /** A langgraph.json to read (absent: none). */
  langgraphJson?: string;
  /** Where langgraph.json's `env` is applied (where unset) and LANGGRAPH_CONFIG read; default process.env. */
  env?: NodeJS.ProcessEnv;
  logger: Logger;
  limits?: RecursionLimits;
}

export type AgentFactoryArgs = Parameters<AgentFactory>[0];

export interface LoadedGraph {
  served: ServedGraph;
  /** The run's agent: the graph (built for the run's config when a factory) over its savers. */
  agent(args: AgentFactoryArgs): Promise<StreamingAgent>;
}

export interface LoadedGraphs {
  graphs: LoadedGraph[];
  /** langgraph.json's `http.app`, when it names one. */
  httpApp?: NonNullable<LangGraphProject["httpApp"]>;
}

/**
 * Reads langgraph.json and `graphs:`, applies the project's env, registers the SDK's platform
 * globals, then imports every graph. Any bad entry stops start-up with an error naming the file,
 * the export and what was wrong.
 */
export async function loadGraphs(sources: GraphSources): Promise<LoadedGraphs> {
  const env = sources.env ?? process.env;
  const project = sources.langgraphJson ? await readLangGraphJson(sources.langgraphJson) : null;
  const specs = [
    ...(project?.graphs ?? []),
    ...Object.entries(sources.configGraphs ?? {}).map(([graphId, entry]) =>
      configSpec(graphId, entry, sources.configDir),
    ),
  ];
  checkIds(specs);
  if (project) {
    // The process environment wins, as over a `.env` file.
    for (const [key, value] of Object.entries(project.env)) env[key] ??= value;
    if (project.notApplied.length > 0) {
      sources.logger.warn(
        { source: project.source, keys: project.notApplied },
        "langgraph.json: these keys are accepted but not applied by Fawn (see docs/CONFIG.md)",
      );
    }
  }
  const defaults = defaultsOf(project?.env.LANGGRAPH_CONFIG ?? env.LANGGRAPH_CONFIG);
  registerSdkLogger(sources.logger);
  const graphs: LoadedGraph[] = [];
  for (const spec of specs) {
    const resolved = await resolveGraph(spec);
    const graphDefaults = defaults[spec.graphId];
    graphs.push({
      served: servedCompiledGraph(resolved, graphDefaults),
      agent: async (args) =>
        graphAgent(
          await resolved.compiled(args.config),
          {
            ...(args.checkpointer ? { checkpointer: args.checkpointer } : {}),
            ...(args.store ? { store: args.store } : {}),
          },
          sources.limits,
        ),
    });
    sources.logger.info({ graph_id: spec.graphId, file: spec.file }, "graph loaded");
  }
  return { graphs, ...(project?.httpApp ? { httpApp: project.httpApp } : {}) };
}

function configSpec(graphId: string, entry: ConfigGraphEntry, configDir: string): GraphSpec {
  const origin = "config.yaml graphs";
  if (typeof entry === "string")
    return parseGraphSpec(graphId, entry, { baseDir: configDir, origin });
  return parseGraphSpec(graphId, entry.path, {
    baseDir: configDir,
    origin,
    ...(entry.description ? { description: entry.description } : {}),
  });
}

function checkIds(specs: readonly GraphSpec[]): void {
  const seen = new Map<string, GraphSpec>();
  for (const spec of specs) {
    if (spec.graphId === LEAD_AGENT_GRAPH_ID) {
      throw new ConfigError(
        `${spec.origin}: graph id "${LEAD_AGENT_GRAPH_ID}" is the lead agent's; give this graph (${spec.file}) another id.`,
      );
    }
    const earlier = seen.get(spec.graphId);
    if (earlier) {
      throw new ConfigError(
        `graph id "${spec.graphId}" is named twice (${earlier.origin} and ${spec.origin}); graph ids must be unique.`,
      );
    }
    seen.set(spec.graphId, spec);
  }
}

/** `LANGGRAPH_CONFIG`: graph id → `{configurable…, context…}`, the graph's assistant defaults. */
function defaultsOf(text: string | undefined): Record<string, GraphDefaults> {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`LANGGRAPH_CONFIG is not valid JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (!isRecord(parsed)) {
    throw new ConfigError(
      "LANGGRAPH_CONFIG must be a JSON object: graph id → {configurable, context}.",
    );
  }
  const defaults: Record<string, GraphDefaults> = {};
  for (const [graphId, value] of Object.entries(parsed)) {
    if (!isRecord(value)) {
      throw new ConfigError(
        `LANGGRAPH_CONFIG["${graphId}"] must be an object ({configurable, context}).`,
      );
    }
    const { context, ...config } = value;
    if (context !== undefined && !isRecord(context)) {
      throw new ConfigError(`LANGGRAPH_CONFIG["${graphId}"].context must be an object.`);
    }
    defaults[graphId] = { config, ...(context ? { context } : {}) };
  }
  return defaults;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
