import { createLeadAgentFactory } from "../agent/lead-agent/lead-agent-factory.js";
import { checkConfiguredTools } from "../agent/tools/configured-tools.js";
import { sandboxToolSettingsOf } from "../agent/tools/sandbox/sandbox-tool-settings.js";
import type { AgentBuilder } from "../app/create-fawn.js";
import type { FawnConfig } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { AgentFactory } from "../ports/agent.js";
import {
  type GraphCatalog,
  LEAD_AGENT_GRAPH_ID,
  staticGraphCatalog,
  undescribedGraph,
} from "../ports/graph-catalog.js";

export interface ServedAgent {
  /** The graphs served, as the API describes them. */
  graphs: GraphCatalog;
  /**
   * `createFawn`'s agent builder: the lead agent over the checkpointer createFawn chose, its tools
   * in the sandbox `sandbox.use` selects.
   */
  build: AgentBuilder;
}

const LEAD_AGENT_GRAPH = undescribedGraph(LEAD_AGENT_GRAPH_ID, {
  description:
    "The lead agent: plans, uses tools and the thread's files; the configured model, or the offline demo model.",
});

/** The graph `fawn serve` runs: the lead agent over the checkpointer the runtime reads state from. */
export function servedAgent(config: FawnConfig, logger: Logger): ServedAgent {
  // The agent factory is built at the first run; a bad `tools:` entry must stop startup instead.
  checkConfiguredTools(config.tools);
  let factory: AgentFactory | undefined;
  return {
    graphs: staticGraphCatalog([LEAD_AGENT_GRAPH]),
    build: ({ checkpointer, sandbox, extensions, agentRuns }) => {
      factory ??= createLeadAgentFactory({
        config,
        checkpointer,
        logger,
        extensions: extensions ?? null,
        agentRuns: agentRuns ?? null,
        sandbox: { provider: sandbox, settings: sandboxToolSettingsOf(config) },
      });
      return factory;
    },
  };
}
