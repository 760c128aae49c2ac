import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFawn } from "../../src/app/create-fawn.js";
import { createFawnGateway } from "../../src/app/fawn-gateway.js";
import { servedAgent } from "../../src/cli/served-agent.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { startGatewayServer } from "../../src/gateway/server.js";

export interface WebBenchServer {
  url: string;
  apiUrl: string;
  close(): Promise<void>;
}

/**
 * What `fawn serve` builds (config → createFawn → served lead agent → gateway, SQLite stores in a
 * fresh FAWN_HOME) serving `webRoot`, with one scripted model replaying `script`.
 */
export async function startWebBenchServer(
  webRoot: string,
  script: unknown,
): Promise<WebBenchServer> {
  const home = await mkdtemp(join(tmpdir(), "fawn-bench-web-"));
  await writeFile(join(home, "script.json"), JSON.stringify(script));
  const { config } = parseConfig(
    {
      database: { url: `sqlite:${join(home, "fawn.db")}` },
      models: [
        { name: "scripted", use: "scripted", model: "scripted", script: join(home, "script.json") },
      ],
    },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: "silent" });
  const agent = servedAgent(config, logger);
  const fawn = await createFawn({ config, logger, buildAgent: agent.build, completionHooks: true });
  const app = createFawnGateway(fawn, { logger, graphs: agent.graphs, webRoot });
  const server = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  return {
    url: server.url,
    apiUrl: `${server.url}/api`,
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
