/**
 * Child process: Fawn's gateway on 127.0.0.1 serving the agent-load graph (over the paced mock
 * at argv[4]) on the database argv[2] (`sqlite:<file>`: durable stores), with the in-memory
 * stream bridge. Answers `lag-start` / `lag-stop` over IPC.
 *
 * With argv[5] (the graph's bundled module) and argv[6] (the bundled execution worker), the graph
 * is served from `graphs:` as `agent` and runs in two execution worker threads instead.
 *
 * FAWN_BENCH_MAX_RUNNING_RUNS=<n> sets `runtime.max_running_runs`.
 *
 * Usage (by the bench, bundled):
 *   node fawn-agent-server.mjs <database-url> <home-dir> <mock-url> [<graph-module> <worker-module>]
 */
import { pathToFileURL } from "node:url";
import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { type AgentChoice, createFawn } from "../../src/app/create-fawn.js";
import { startExecutionWorkers } from "../../src/app/execution/start-execution.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { loadServedAgent } from "../../src/cli/served-agent.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { startGatewayServer } from "../../src/gateway/server.js";
import { serveParent } from "../lib/child-side.js";
import { LoopDelayProbe } from "../lib/loop-delay.js";
import { buildAgentLoadGraph, WORKERS_GRAPH_ID } from "./agent-graph.js";

const [databaseUrl, home, mockUrl, graphModule, workerModule] = process.argv.slice(2);
if (!databaseUrl || !home || !mockUrl) {
  throw new Error(
    "usage: fawn-agent-server <database-url> <home-dir> <mock-url> [<graph> <worker>]",
  );
}
const workers = graphModule && workerModule ? 2 : 0;

const { config } = parseConfig(
  {
    database: { url: databaseUrl },
    runtime: {
      workers,
      max_running_runs: Number(process.env.FAWN_BENCH_MAX_RUNNING_RUNS ?? 0),
    },
    ...(workers > 0 ? { graphs: { [WORKERS_GRAPH_ID]: `${graphModule}:graph` } } : {}),
  },
  { env: { FAWN_HOME: home }, cwd: home },
);
const logger = createLogger({ level: "silent" });
const execution =
  workerModule && workers > 0
    ? await startExecutionWorkers(config, { configDir: home }, logger, {
        entry: pathToFileURL(workerModule),
        logLevel: "silent",
      })
    : null;
const served = workers > 0 ? await loadServedAgent(config, logger, { configDir: home }) : null;
const agent: AgentChoice = served
  ? { buildAgent: served.build }
  : {
      buildAgent: ({ checkpointer }) => {
        const lead = toStreamingAgent(buildAgentLoadGraph(mockUrl, checkpointer));
        return () => lead;
      },
    };
const fawn = await createFawn({
  config,
  logger,
  ...agent,
  ...(execution ? { execution } : {}),
  completionHooks: true,
});
const app = createFawnGateway(fawn, { logger, ...(served ? { graphs: served.graphs } : {}) });
const server = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });

const probe = new LoopDelayProbe();
serveParent(server.url, {
  "lag-start": () => probe.start(),
  "lag-stop": () => probe.stop(),
});

process.once("SIGTERM", () => {
  server.stopAccepting();
  void fawn
    .close()
    .then(() => server.close())
    .finally(() => process.exit(0));
});
