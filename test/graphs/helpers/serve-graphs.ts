import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { startExecutionWorkers } from "../../../src/app/execution/start-execution.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { loadServedAgent } from "../../../src/cli/served-agent.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import type { AuthProvider } from "../../../src/gateway/auth/auth-provider.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import { loadHttpApp, withCustomRoutes } from "../../../src/graphs/http-app.js";
import { registerSdkApiUrl } from "../../../src/graphs/platform-globals.js";

/** The fixture project: echo, tool agent, nested interrupt, store and error graphs, `http.app`. */
export const FIXTURE_LANGGRAPH_JSON = fileURLToPath(
  new URL("../../fixtures/graphs/langgraph.json", import.meta.url),
);

export interface ServeGraphsOptions {
  /** The langgraph.json to serve (its graphs, env and `http.app`); default: none. */
  langgraphJson?: string;
  /** config.yaml content (FAWN_HOME is a fresh temp folder; stores in SQLite there). */
  config?: (home: string) => Record<string, unknown>;
  /** The folder config `graphs:` entries are relative to (default: the fixtures folder). */
  configDir?: string;
  /** The environment langgraph.json's `env` goes to (default: a copy of process.env). */
  env?: NodeJS.ProcessEnv;
  auth?: AuthProvider;
  /** `runtime.workers`: the served graphs run in this many execution worker threads. */
  workers?: number;
}

export interface ServedGraphs {
  home: string;
  url: string;
  /** `…/api` — the SDK's `apiUrl`. */
  apiUrl: string;
  fawn: Fawn;
  /** An SDK client sending `headers` on every request. */
  client(headers?: Record<string, string>): Client;
  close(): Promise<void>;
}

/**
 * The server `fawn serve` builds for a project with a langgraph.json (and/or config `graphs:`):
 * the lead agent and every loaded graph on the durable runtime, the project's `http.app` before
 * Fawn's routes, on an ephemeral 127.0.0.1 port. Only the config source and signals differ.
 */
export async function serveGraphs(options: ServeGraphsOptions = {}): Promise<ServedGraphs> {
  const home = await mkdtemp(join(tmpdir(), "fawn-graphs-"));
  const { config } = parseConfig(
    { database: { url: `sqlite:${join(home, "fawn.db")}` }, ...options.config?.(home) },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logLevel = process.env.FAWN_TEST_LOG_LEVEL ?? "silent";
  const logger = createLogger({ level: logLevel });
  const agent = await loadServedAgent(config, logger, {
    configDir: options.configDir ?? dirname(FIXTURE_LANGGRAPH_JSON),
    ...(options.langgraphJson ? { langgraphJson: options.langgraphJson } : {}),
    // A copy by default: one test's langgraph.json env must not leak into the next server.
    env: options.env ?? { ...process.env },
  });
  const execution = await startExecutionWorkers(
    { ...config, runtime: { ...config.runtime, workers: options.workers ?? 0 } },
    {
      configDir: options.configDir ?? dirname(FIXTURE_LANGGRAPH_JSON),
      ...(options.langgraphJson ? { langgraphJson: options.langgraphJson } : {}),
    },
    logger,
    { logLevel },
  );
  const fawn: Fawn = await createFawn({
    config,
    logger,
    ...(execution ? { execution } : {}),
    buildAgent: agent.build,
    // As `fawn serve`: thread titles and webhooks.
    completionHooks: true,
  });
  const gateway = createFawnGateway(fawn, {
    logger,
    graphs: agent.graphs,
    webRoot: false,
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const app = agent.httpApp ? withCustomRoutes(await loadHttpApp(agent.httpApp), gateway) : gateway;
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const apiUrl = `${server.url}/api`;
  registerSdkApiUrl(apiUrl);
  execution?.announceApiUrl(apiUrl);
  return {
    home,
    url: server.url,
    apiUrl,
    fawn,
    client: (headers) =>
      new Client({
        apiUrl,
        apiKey: null,
        callerOptions: { maxRetries: 0 },
        ...(headers ? { defaultHeaders: headers } : {}),
      }),
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
