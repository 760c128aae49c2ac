import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger, type Logger } from "../../../src/core/logger.js";
import type { AuthProvider } from "../../../src/gateway/auth/auth-provider.js";
import {
  type GatewayServer,
  type ServerTimeouts,
  startGatewayServer,
} from "../../../src/gateway/server.js";
import type { StreamTestHooks } from "../../../src/gateway/sse/run-event-stream.js";
import type { LoginAttemptStore } from "../../../src/ports/login-attempt-store.js";
import type { StreamBridge } from "../../../src/ports/stream-bridge.js";
import { buildTestGraph, GraphControls, streamingAgentFromGraph } from "./test-graph.js";

export interface GatewayHarness {
  url: string;
  /** `…/api` — the SDK's `apiUrl`. */
  apiUrl: string;
  client: Client;
  fawn: Fawn;
  controls: GraphControls;
  /** Mutable: a test sets `beforeEventFrame` to drop a stream once. */
  streamHooks: StreamTestHooks;
  close(): Promise<void>;
}

/** A real gateway over HTTP on 127.0.0.1 (ephemeral port), memory stores, the test graph. */
export interface HarnessOptions {
  heartbeatMs?: number;
  /** Events retained per run stream (default 256). */
  queueMaxSize?: number;
  /** How long a finished run's stream stays replayable (default 60 s). */
  streamRetentionMs?: number;
  /**
   * Default `memory:`; `sqlite` puts stores and checkpoints in a SQLite file under the temp home;
   * `{url}` uses that database (e.g. a shared PostgreSQL).
   */
  database?: "memory" | "sqlite" | { url: string };
  /** Default: the in-memory bridge. */
  bridge?: StreamBridge;
  /** Default: what createFawn picks (Redis, else the SQL database, else memory); stays the caller's. */
  loginAttempts?: LoginAttemptStore;
  workerId?: string;
  /** Extra config.yaml content (merged over the harness defaults). */
  config?: Record<string, unknown>;
  /** Default: auth disabled (every request is the default user). */
  auth?: AuthProvider;
  /** Headers the harness's SDK client sends on every request. */
  clientHeaders?: Record<string, string>;
  /** Default: silent (or `FAWN_TEST_LOG_LEVEL`). */
  logger?: Logger;
  /** Connection timeouts of the HTTP server (default: the server's defaults). */
  serverTimeouts?: Partial<ServerTimeouts>;
}

export async function startGatewayHarness(options: HarnessOptions = {}): Promise<GatewayHarness> {
  const home = await mkdtemp(join(tmpdir(), "fawn-gateway-"));
  const { config } = parseConfig(
    {
      database: { url: databaseUrl(options.database, home) },
      stream_bridge: { queue_maxsize: options.queueMaxSize ?? 256 },
      ...options.config,
    },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger =
    options.logger ?? createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const controls = new GraphControls();
  const fawn: Fawn = await createFawn({
    config,
    logger,
    ...(options.bridge ? { bridge: options.bridge } : {}),
    ...(options.loginAttempts ? { loginAttempts: options.loginAttempts } : {}),
    ...(options.workerId ? { workerId: options.workerId } : {}),
    // Built at the first run, over the checkpointer createFawn chose.
    buildAgent: ({ checkpointer }) => {
      const agent = streamingAgentFromGraph(buildTestGraph(checkpointer, controls));
      return () => agent;
    },
    completionHooks: true,
    runContext: { streamRetentionMs: options.streamRetentionMs ?? 60_000 },
  });
  const streamHooks: StreamTestHooks = {};
  const app = createFawnGateway(fawn, {
    logger,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    ...(options.auth ? { auth: options.auth } : {}),
    streamHooks,
  });
  const server: GatewayServer = await startGatewayServer(app, {
    port: 0,
    host: "127.0.0.1",
    ...(options.serverTimeouts ? { timeouts: options.serverTimeouts } : {}),
  });
  const apiUrl = `${server.url}/api`;
  return {
    url: server.url,
    apiUrl,
    client: new Client({
      apiUrl,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
      ...(options.clientHeaders ? { defaultHeaders: options.clientHeaders } : {}),
    }),
    fawn,
    controls,
    streamHooks,
    async close() {
      controls.releaseAll();
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

function databaseUrl(database: HarnessOptions["database"], home: string): string {
  if (database === "sqlite") return `sqlite:${join(home, "fawn.db")}`;
  if (typeof database === "object") return database.url;
  return "memory:";
}
