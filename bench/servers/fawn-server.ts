/**
 * Child process: Fawn's gateway (the HTTP API `fawn serve` exposes) on 127.0.0.1, running the
 * bench graph, on the database given as argv[2] (`sqlite:<file>` for durable stores) with the
 * in-memory stream bridge. Answers `memory` and `lag-start` / `lag-stop` over IPC.
 *
 * Usage (by the bench, bundled): node fawn-server.mjs <database-url> <home-dir>
 */

import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { createFawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { startGatewayServer } from "../../src/gateway/server.js";
import { collectedMemory, serveParent } from "../lib/child-side.js";
import { LoopDelayProbe } from "../lib/loop-delay.js";
import { buildBenchGraph } from "../runtime/bench-graph.js";

const [databaseUrl, home] = process.argv.slice(2);
if (!databaseUrl || !home) throw new Error("usage: fawn-server <database-url> <home-dir>");

const { config } = parseConfig(
  { database: { url: databaseUrl } },
  { env: { FAWN_HOME: home }, cwd: home },
);
const logger = createLogger({ level: "silent" });
const fawn = await createFawn({
  config,
  logger,
  // One graph for every run, built over the checkpointer createFawn chose (as `fawn serve`).
  buildAgent: ({ checkpointer }) => {
    const agent = toStreamingAgent(buildBenchGraph(checkpointer));
    return () => agent;
  },
  completionHooks: true,
});
const app = createFawnGateway(fawn, { logger });
const server = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });

const probe = new LoopDelayProbe();
serveParent(server.url, {
  memory: () => collectedMemory(),
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
