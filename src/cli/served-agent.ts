import { createLeadAgentFactory } from "../agent/lead-agent/lead-agent-factory.js";
import { checkConfiguredTools } from "../agent/tools/configured-tools.js";
import { sandboxToolSettingsOf } from "../agent/tools/sandbox/sandbox-tool-settings.js";
import type { AgentBuilder } from "../app/create-fawn.js";
import type { FawnConfig } from "../core/config/schema.js";
import { RunStartupError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { type LoadedGraph, type LoadedGraphs, loadGraphs } from "../graphs/load-graphs.js";
import type { AgentFactory } from "../ports/agent.js";
import {
  type GraphCatalog,
  LEAD_AGENT_GRAPH_ID,
  staticGraphCatalog,
  undescribedGraph,
} from "../ports/graph-catalog.js";

export interface ServedAgent {
  /** The graphs served, as the API describes them: the lead agent first, then loaded graphs. */
  graphs: GraphCatalog;
  /**
   * `createFawn`'s agent builder: a factory that runs the lead agent (over the checkpointer
   * createFawn chose, its tools in the sandbox `sandbox.use` selects) or a loaded graph, by the
   * run's graph id.
   */
  build: AgentBuilder;
  /** langgraph.json's `http.app`, for the server to mount before its routes. */
  httpApp?: LoadedGraphs["httpApp"];
}

const LEAD_AGENT_GRAPH = undescribedGraph(LEAD_AGENT_GRAPH_ID, {
  description:
    "The lead agent: plans, uses tools and the thread's files; the configured model, or the offline demo model.",
});

/** Where `fawn serve` finds the graphs it serves besides the lead agent. */
export interface GraphLocations {
  /** The folder config.yaml's `graphs:` entries are relative to (the config file's). */
  configDir: string;
  /** A langgraph.json to serve the graphs of. */
  langgraphJson?: string;
  env?: NodeJS.ProcessEnv;
}

/** The lead agent and every graph configured: what `fawn serve` runs. */
export async function loadServedAgent(
  config: FawnConfig,
  logger: Logger,
  locations: GraphLocations,
): Promise<ServedAgent> {
  const loaded = await loadGraphs({
    ...(config.graphs ? { configGraphs: config.graphs } : {}),
    configDir: locations.configDir,
    ...(locations.langgraphJson ? { langgraphJson: locations.langgraphJson } : {}),
    ...(locations.env ? { env: locations.env } : {}),
    logger,
    ...(config.max_recursion_limit
      ? { limits: { maxRecursionLimit: config.max_recursion_limit } }
      : {}),
  });
  return servedAgent(config, logger, loaded);
}

/**
 * The graphs `fawn serve` runs: the lead agent over the checkpointer the runtime reads state
 * from, and `loaded` graphs (none unless given).
 */
export function servedAgent(
  config: FawnConfig,
  logger: Logger,
  loaded: LoadedGraphs = { graphs: [] },
): ServedAgent {
  // The agent factory is built at the first run; a bad `tools:` entry must stop startup instead.
  checkConfiguredTools(config.tools);
  const byId = new Map<string, LoadedGraph>(loaded.graphs.map((g) => [g.served.graphId, g]));
  let lead: AgentFactory | undefined;
  return {
    graphs: staticGraphCatalog([LEAD_AGENT_GRAPH, ...loaded.graphs.map((g) => g.served)]),
    build: ({ checkpointer, sandbox, extensions, agentRuns, documents }) => {
      lead ??= createLeadAgentFactory({
        config,
        checkpointer,
        logger,
        extensions: extensions ?? null,
        agentRuns: agentRuns ?? null,
        documents: documents ?? null,
        sandbox: { provider: sandbox, settings: sandboxToolSettingsOf(config) },
      });
      const leadFactory = lead;
      return (args) => {
        if (args.graphId === undefined || args.graphId === LEAD_AGENT_GRAPH_ID) {
          return leadFactory(args);
        }
        const graph = byId.get(args.graphId);
        if (!graph) {
          const served = [LEAD_AGENT_GRAPH_ID, ...byId.keys()].map((id) => `"${id}"`).join(", ");
          throw new RunStartupError(
            `Graph "${args.graphId}" is not served here; this server runs ${served}.`,
          );
        }
        return graph.agent(args);
      };
    },
    ...(loaded.httpApp ? { httpApp: loaded.httpApp } : {}),
  };
}
