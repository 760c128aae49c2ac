import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import { compiledGraphState } from "../../../src/graphs/compiled-graph-state.js";
import type { AgentFactory } from "../../../src/ports/agent.js";
import {
  LEAD_AGENT_GRAPH_ID,
  type ServedGraph,
  staticGraphCatalog,
  undescribedGraph,
} from "../../../src/ports/graph-catalog.js";
import { TEST_GRAPHS, type TestGraphId } from "./test-graphs.js";

export interface GraphGateway {
  client: Client;
  fawn: Fawn;
  close(): Promise<void>;
}

function isTestGraph(id: unknown): id is TestGraphId {
  return typeof id === "string" && Object.hasOwn(TEST_GRAPHS, id);
}

/**
 * A served gateway (SQLite stores in a temp home, or `database`) whose catalog holds the test
 * graphs with state access, and whose runs execute the thread's graph: the run's graph id when it
 * names one, else the thread's `metadata.graph_id` (runs admitted under another assistant).
 */
export async function startGraphGateway(
  options: { database?: string } = {},
): Promise<GraphGateway> {
  const home = await mkdtemp(join(tmpdir(), "fawn-threads-"));
  const { config } = parseConfig(
    { database: { url: options.database ?? `sqlite:${join(home, "fawn.db")}` } },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  let fawn: Fawn | undefined;
  const agentFactory: AgentFactory = async ({ graphId, config: runConfig, checkpointer }) => {
    const configurable = (runConfig.configurable ?? {}) as Record<string, unknown>;
    const threadId = configurable.thread_id;
    const row =
      typeof threadId === "string" && fawn ? await fawn.stores.threads.get(threadId) : null;
    const id = isTestGraph(graphId) ? graphId : row?.metadata.graph_id;
    if (!isTestGraph(id)) throw new Error(`no test graph for run of ${String(graphId)}`);
    const graph = TEST_GRAPHS[id](checkpointer);
    return {
      stream: (input, streamOptions) => graph.stream(input as never, streamOptions as never),
    };
  };
  fawn = await createFawn({ config, logger, agentFactory, completionHooks: true });
  const served: ServedGraph[] = [
    undescribedGraph(LEAD_AGENT_GRAPH_ID),
    ...(Object.keys(TEST_GRAPHS) as TestGraphId[]).map(
      (graphId): ServedGraph => ({
        ...undescribedGraph(graphId),
        stateAccess: async ({ checkpointer }) =>
          compiledGraphState(TEST_GRAPHS[graphId](), { checkpointer }),
      }),
    ),
  ];
  const app = createFawnGateway(fawn, { logger, graphs: staticGraphCatalog(served) });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const started = fawn;
  return {
    client: new Client({
      apiUrl: `${server.url}/api`,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
    }),
    fawn: started,
    async close() {
      await server.close();
      await started.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
