import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { servedAgent } from "../../../src/cli/served-agent.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import type { AuthProvider } from "../../../src/gateway/auth/auth-provider.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";

export interface ServedGateway {
  home: string;
  url: string;
  /** `…/api` — the SDK's `apiUrl`. */
  apiUrl: string;
  port: number;
  fawn: Fawn;
  /** An SDK client sending `headers` on every request. */
  client(headers?: Record<string, string>): Client;
  close(): Promise<void>;
}

export interface ServedGatewayOptions {
  /** config.yaml content (FAWN_HOME is a fresh temp folder; stores in SQLite there). */
  config?: (home: string) => Record<string, unknown>;
  auth?: AuthProvider;
  /** Serve this web build at `/` (the UI), as `fawn serve` serves web/dist. */
  webRoot?: string;
  /**
   * Serve this FAWN_HOME instead of a fresh one (a restart over the same stores and files); the
   * caller owns it, so `close()` leaves it in place.
   */
  home?: string;
}

/**
 * The server `fawn serve` builds — config → createFawn (which creates the sandbox provider
 * `sandbox.use` selects) → the served lead agent with that provider → the gateway — on an
 * ephemeral 127.0.0.1 port. Only the config source and signal handling differ from serve.ts.
 */
export async function startServedGateway(
  options: ServedGatewayOptions = {},
): Promise<ServedGateway> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), "fawn-e2e-")));
  const { config } = parseConfig(
    { database: { url: `sqlite:${join(home, "fawn.db")}` }, ...options.config?.(home) },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const agent = servedAgent(config, logger);
  const fawn: Fawn = await createFawn({
    config,
    logger,
    buildAgent: agent.build,
    completionHooks: true,
  });
  const app = createFawnGateway(fawn, {
    logger,
    graphs: agent.graphs,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const apiUrl = `${server.url}/api`;
  return {
    home,
    url: server.url,
    apiUrl,
    port: Number(new URL(server.url).port),
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
      // A run interrupted mid-start can still be writing its thread's skills view after close()
      // (its beforeAgent step does not watch the abort); retrying outlasts those last writes.
      if (options.home === undefined)
        await rm(home, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

/** A config.yaml `models:` entry for the real ChatOpenAI client against a mock server. */
export function mockGptModel(baseUrl: string): Record<string, unknown> {
  return {
    name: "mock-gpt",
    use: "openai",
    model: "gpt-mock",
    api_key: "any-string",
    base_url: baseUrl,
    max_retries: 0,
  };
}
