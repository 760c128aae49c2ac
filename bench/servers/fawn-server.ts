/**
 * Child process: Fawn's gateway (the HTTP API `fawn serve` exposes) on 127.0.0.1, running the
 * bench graph, on the database given as argv[2] (`sqlite:<file>` for durable stores) with the
 * in-memory stream bridge. Answers `memory` and `lag-start` / `lag-stop` over IPC.
 *
 * Usage (by the bench, bundled): node fawn-server.mjs <database-url> <home-dir>
 */

import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { createGatewayApp } from "../../src/gateway/app.js";
import { RunCompletionHooks } from "../../src/gateway/runs/run-completion-hooks.js";
import { startGatewayServer } from "../../src/gateway/server.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
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
const hooks = new RunCompletionHooks(logger);
let agent: StreamingAgent | undefined;
const fawn: Fawn = await createFawn({
  config,
  logger,
  // One graph for every run, built once createFawn has chosen the checkpointer (as `fawn serve`).
  agentFactory: () => {
    agent ??= toStreamingAgent(buildBenchGraph(fawn.checkpointer));
    return agent;
  },
  runContext: { onRunCompleted: hooks.onRunCompleted },
});
hooks.attach(fawn);
const app = createGatewayApp({ fawn, logger });
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
