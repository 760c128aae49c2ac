import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import { servedAgent } from "../../../src/cli/served-agent.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import { type GatewayServer, startGatewayServer } from "../../../src/gateway/server.js";
import {
  type BrowserSession,
  cookieHeaders,
  registerUser,
} from "../../auth/helpers/http-session.js";

export interface ReferenceServer {
  home: string;
  /** `…/api`, where the reference UI's calls go. */
  apiUrl: string;
  fawn: Fawn;
  /** A request as `who` (a browser session under local auth; nobody: no credentials). */
  call(
    who: string | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; json: unknown }>;
  /** The unmodified SDK acting as `who`. */
  sdk(who: string | null): Client;
  close(): Promise<void>;
}

/**
 * What `fawn serve` serves (createFawn → the served lead agent → the gateway) on 127.0.0.1 over
 * memory stores, or a SQLite file under the home. `users` are registered when auth is local (the
 * first one opens registration).
 */
export async function startReferenceServer(options: {
  config: (home: string) => Record<string, unknown>;
  users?: string[];
  database?: "memory" | "sqlite";
}): Promise<ReferenceServer> {
  const home = await mkdtemp(join(tmpdir(), "fawn-reference-ui-"));
  const { config } = parseConfig(
    {
      database: {
        url: options.database === "sqlite" ? `sqlite:${join(home, "fawn.db")}` : "memory:",
      },
      memory: { enabled: false },
      crons: { poll_interval_seconds: 0 },
      ...options.config(home),
    },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const agent = servedAgent(config, logger);
  const fawn = await createFawn({ config, logger, buildAgent: agent.build });
  const app = createFawnGateway(fawn, { logger, graphs: agent.graphs, webRoot: false });
  const server: GatewayServer = await startGatewayServer(app, { port: 0, host: "127.0.0.1" });
  const apiUrl = `${server.url}/api`;
  const sessions = new Map<string, BrowserSession>();
  for (const user of options.users ?? []) {
    sessions.set(user, await registerUser(apiUrl, `${user}@example.org`, `${user} password 1`));
  }
  const headersOf = (who: string | null): Record<string, string> => {
    const session = who === null ? undefined : sessions.get(who);
    return session ? cookieHeaders(session) : {};
  };
  return {
    home,
    apiUrl,
    fawn,
    async call(who, method, path, body) {
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { "content-type": "application/json", ...headersOf(who) },
        ...(body === undefined
          ? {}
          : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      let json: unknown = text;
      try {
        json = text === "" ? null : JSON.parse(text);
      } catch {
        // An SSE body stays text.
      }
      return { status: response.status, headers: response.headers, json };
    },
    sdk: (who) =>
      new Client({
        apiUrl,
        apiKey: null,
        callerOptions: { maxRetries: 0 },
        defaultHeaders: headersOf(who),
      }),
    async close() {
      await server.close();
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
