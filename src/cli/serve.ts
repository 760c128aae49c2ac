import { access } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { createBridge, createFawn } from "../app/create-fawn.js";
import { startExecutionWorkers } from "../app/execution/start-execution.js";
import { createFawnGateway } from "../app/fawn-gateway.js";
import { loadConfig } from "../core/config/load-config.js";
import { describeError } from "../core/errors.js";
import { createLogger } from "../core/logger.js";
import { startGatewayServer } from "../gateway/server.js";
import { loadHttpApp, withCustomRoutes } from "../graphs/http-app.js";
import { registerSdkApiUrl } from "../graphs/platform-globals.js";
import { loadServedAgent } from "./served-agent.js";

export interface ServeOptions {
  port?: number;
  host?: string;
  /** A langgraph.json whose graphs to serve (default: `./langgraph.json` when there is one). */
  langgraphJson?: string;
}

/**
 * `fawn serve`: config → Fawn runtime → gateway on `server.host:server.port`. SIGINT/SIGTERM
 * drain (new runs refused, readiness 503, admitted runs get `runtime.shutdown_timeout_seconds` to
 * finish, the rest go to peers through their leases), then close the runtime and exit 0.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const { config, warnings, source } = await loadConfig();
  const logger = createLogger({ level: config.log_level });
  for (const warning of warnings) logger.warn({ source }, `config: ${warning}`);
  const port = options.port ?? config.server.port;
  const host = options.host ?? config.server.host;

  const locations = {
    configDir: source ? dirname(source) : process.cwd(),
    ...(await langgraphJsonOf(options)),
  };
  const agent = await loadServedAgent(config, logger, locations);
  const execution = await startExecutionWorkers(config, locations, logger);
  const fawn = await createFawn({
    config,
    logger,
    // Redis when FAWN_REDIS_URL / stream_bridge.redis_url is set: any process can stream any run.
    bridge: createBridge(config),
    buildAgent: agent.build,
    completionHooks: true,
    ...(execution ? { execution } : {}),
    // Relative `plugins[].use` paths are relative to the config file.
    ...(source ? { pluginBaseDir: dirname(source) } : {}),
  });
  const gateway = createFawnGateway(fawn, { logger, graphs: agent.graphs });
  const app = agent.httpApp ? withCustomRoutes(await loadHttpApp(agent.httpApp), gateway) : gateway;
  const server = await startGatewayServer(app, {
    port,
    host,
    timeouts: {
      headersTimeoutSeconds: config.server.headers_timeout_seconds,
      requestTimeoutSeconds: config.server.request_timeout_seconds,
      keepAliveTimeoutSeconds: config.server.keep_alive_timeout_seconds,
    },
  });
  // A graph's `new Client()` without an `apiUrl` calls this server, as on LangGraph's.
  registerSdkApiUrl(`${server.url}/api`);
  execution?.announceApiUrl(`${server.url}/api`);
  process.stdout.write(
    `Fawn listening on ${server.url}\n` +
      `  workspace: ${server.url}/\n` +
      `  API: ${server.url}/api  (LangGraph SDK apiUrl)\n  data: ${redactUrl(config.database.url)}\n` +
      (execution
        ? `  execution: ${config.runtime.workers} worker thread(s) for served graphs\n`
        : ""),
  );

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "draining");
    try {
      // Still listening: probes see `/health/ready` 503 and new runs are refused (503) while
      // admitted runs finish or go to peers.
      const drained = await fawn.drain();
      logger.info(
        { finished: drained.finished, handedOff: drained.handedOff.length },
        "drained; shutting down",
      );
    } catch (error) {
      logger.error({ error: describeError(error) }, "drain failed");
    }
    server.stopAccepting();
    try {
      await fawn.close();
    } catch (error) {
      logger.error({ error: describeError(error) }, "runtime shutdown failed");
      process.exitCode = 1;
    }
    await server.close();
    // Runs are finalized and stores closed; leftover timers (stream retention) must not keep the
    // process alive.
    process.exit();
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

/** The langgraph.json asked for, else `./langgraph.json` when the working directory has one. */
async function langgraphJsonOf(options: ServeOptions): Promise<{ langgraphJson?: string }> {
  if (options.langgraphJson) return { langgraphJson: resolve(options.langgraphJson) };
  const candidate = resolve("langgraph.json");
  try {
    await access(candidate);
    return { langgraphJson: candidate };
  } catch {
    return {};
  }
}

/** A database URL without its password, for the start-up banner. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
