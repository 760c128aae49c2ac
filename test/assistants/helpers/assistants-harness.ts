/**
 * A real gateway over HTTP serving two graphs — `lead_agent` and `echo` (whose system assistant
 * carries defaults) — both run by the gateway test graph through a factory that records the
 * graph id and config of every run it builds.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import { staticGraphCatalog, undescribedGraph } from "../../../src/ports/graph-catalog.js";
import {
  buildTestGraph,
  GraphControls,
  streamingAgentFromGraph,
} from "../../gateway/helpers/test-graph.js";

/** What the agent factory was given for one run. */
export interface BuiltRun {
  graphId: string | undefined;
  config: Record<string, unknown>;
}

export const ECHO_DEFAULTS = {
  config: { configurable: { model_name: "openai" }, tags: ["from-env"] },
  context: { tz: "UTC" },
};

export interface AssistantsHarness {
  apiUrl: string;
  fawn: Fawn;
  client(headers?: Record<string, string>): Client;
  builds: BuiltRun[];
  close(): Promise<void>;
}

export async function startAssistantsHarness(
  options: { database?: "memory" | "sqlite"; config?: Record<string, unknown>; home?: string } = {},
): Promise<AssistantsHarness> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), "fawn-assistants-")));
  const url = options.database === "sqlite" ? `sqlite:${join(home, "fawn.db")}` : "memory:";
  const { config } = parseConfig(
    { database: { url }, ...options.config },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const controls = new GraphControls();
  const builds: BuiltRun[] = [];
  const fawn = await createFawn({
    config,
    logger,
    buildAgent: ({ checkpointer }) => {
      const agent = streamingAgentFromGraph(buildTestGraph(checkpointer, controls));
      return (args) => {
        builds.push({ graphId: args.graphId, config: structuredClone(args.config) });
        return agent;
      };
    },
  });
  const graphs = staticGraphCatalog([
    undescribedGraph("lead_agent", { description: "The lead agent." }),
    { ...undescribedGraph("echo", { name: "echo" }), defaults: ECHO_DEFAULTS },
  ]);
  const app = createFawnGateway(fawn, { logger, graphs, webRoot: false });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const apiUrl = `${server.url}/api`;
  return {
    apiUrl,
    fawn,
    builds,
    client: (headers) =>
      new Client({
        apiUrl,
        apiKey: null,
        callerOptions: { maxRetries: 0 },
        ...(headers ? { defaultHeaders: headers } : {}),
      }),
    async close() {
      controls.releaseAll();
      await server.close();
      await fawn.close();
      if (options.home === undefined) await rm(home, { recursive: true, force: true });
    },
  };
}
