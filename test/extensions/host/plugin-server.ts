import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { createFawnGateway } from "../../../src/app/fawn-gateway.js";
import type { PluginSettings } from "../../../src/app/plugin-host.js";
import { servedAgent } from "../../../src/cli/served-agent.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { FawnError } from "../../../src/core/errors.js";
import { createLogger } from "../../../src/core/logger.js";
import type { AuthProvider } from "../../../src/gateway/auth/auth-provider.js";
import type { Principal } from "../../../src/gateway/auth/principal.js";
import type { GatewayEnv } from "../../../src/gateway/http/gateway-env.js";

/** Signed-in callers named by `x-test-user` (a session, as a browser would be); none → 401. */
export class SessionHeaderAuth implements AuthProvider {
  readonly mode = "local" as const;

  async authenticate(request: Request): Promise<Principal> {
    const user = request.headers.get("x-test-user");
    if (!user) throw new FawnError("unauthorized", "Not authenticated: send credentials.");
    return { userId: user, via: "session" };
  }
}

export interface PluginServer {
  home: string;
  fawn: Fawn;
  app: Hono<GatewayEnv>;
  /** A request to the in-process gateway as `user` (null: anonymous). */
  request(method: string, path: string, body?: unknown, user?: string | null): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The server `fawn serve` builds (createFawn → served lead agent → gateway), memory stores, the
 * given `plugins:` entries and built-ins, behind session auth; served in process.
 */
export async function startPluginServer(options: {
  plugins: Array<Record<string, unknown>>;
  config?: (home: string) => Record<string, unknown>;
  settings?: PluginSettings;
}): Promise<PluginServer> {
  const home = await mkdtemp(join(tmpdir(), "fawn-plugins-"));
  const { config } = parseConfig(
    { database: { url: "memory:" }, plugins: options.plugins, ...options.config?.(home) },
    { env: { FAWN_HOME: home }, cwd: home },
  );
  const logger = createLogger({ level: process.env.FAWN_TEST_LOG_LEVEL ?? "silent" });
  const agent = servedAgent(config, logger);
  const fawn = await createFawn({
    config,
    logger,
    buildAgent: agent.build,
    ...options.settings,
  });
  const app = createFawnGateway(fawn, {
    logger,
    graphs: agent.graphs,
    auth: new SessionHeaderAuth(),
    webRoot: false,
  });
  return {
    home,
    fawn,
    app,
    request: (method, path, body, user = "alice") =>
      Promise.resolve(
        app.request(path, {
          method,
          headers: {
            ...(user ? { "x-test-user": user } : {}),
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined
            ? {}
            : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        }),
      ),
    async close() {
      await fawn.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
