/**
 * Child process: Fawn's gateway on 127.0.0.1 serving the agent-load graph (over the paced mock
 * at argv[4]) on the database argv[2] (`sqlite:<file>`: durable stores), with the in-memory
 * stream bridge. Answers `lag-start` / `lag-stop` over IPC.
 *
 * Usage (by the bench, bundled): node fawn-agent-server.mjs <database-url> <home-dir> <mock-url>
 */
import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { createFawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { startGatewayServer } from "../../src/gateway/server.js";
import { serveParent } from "../lib/child-side.js";
import { LoopDelayProbe } from "../lib/loop-delay.js";
import { buildAgentLoadGraph } from "./agent-graph.js";

const [databaseUrl, home, mockUrl] = process.argv.slice(2);
if (!databaseUrl || !home || !mockUrl) {
  throw new Error("usage: fawn-agent-server <database-url> <home-dir> <mock-url>");
}

const { config } = parseConfig(
  { database: { url: databaseUrl } },
  { env: { FAWN_HOME: home }, cwd: home },
);
const logger = createLogger({ level: "silent" });
const fawn = await createFawn({
  config,
  logger,
  buildAgent: ({ checkpointer }) => {
    const agent = toStreamingAgent(buildAgentLoadGraph(mockUrl, checkpointer));
    return () => agent;
  },
  completionHooks: true,
});
const app = createFawnGateway(fawn, { logger });
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
