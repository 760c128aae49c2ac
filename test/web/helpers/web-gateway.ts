import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servedAgent } from "../../../src/cli/served-agent.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { createFawn, type Fawn } from "../../../src/embedded/create-fawn.js";
import { createGatewayApp } from "../../../src/gateway/app.js";
import { RunCompletionHooks } from "../../../src/gateway/runs/run-completion-hooks.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";

export interface WebGateway {
  home: string;
  url: string;
  fawn: Fawn;
  close(): Promise<void>;
}

/**
 * What `fawn serve` builds (config → createFawn → served lead agent → gateway) on an ephemeral
 * 127.0.0.1 port, serving the web build in `webRoot` at `/`.
 */
export async function startWebGateway(options: {
  webRoot: string;
  config?: (home: string) => Record<string, unknown>;
}): Promise<WebGateway> {
  const home = await mkdtemp(join(tmpdir(), "fawn-web-"));
  const { config } = parseConfig(
    { database: { url: `sqlite:${join(home, "fawn.db")}` }, ...options.config?.(home) },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const hooks = new RunCompletionHooks(logger);
  const agent = servedAgent(config, logger);
  const fawn: Fawn = await createFawn({
    config,
    logger,
    agentFactory: (args) => agent.factory(fawn.checkpointer, fawn.sandbox)(args),
    runContext: { onRunCompleted: hooks.onRunCompleted },
  });
  hooks.attach(fawn);
  const app = createGatewayApp({
    fawn,
    logger,
    agent: agent.description,
    webRoot: options.webRoot,
  });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  return {
    home,
    url: server.url,
    fawn,
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
