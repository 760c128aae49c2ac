import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { CustomAgentStore } from "../agent/custom-agents/custom-agent-store.js";
import { MemoryStore } from "../agent/memory/memory-store.js";
import { errorBody } from "../core/errors.js";
import { LogThrottle } from "../core/log-throttle.js";
import type { Logger } from "../core/logger.js";
import { FawnPaths } from "../core/paths.js";
import {
  type GraphCatalog,
  LEAD_AGENT_GRAPH_ID,
  staticGraphCatalog,
  undescribedGraph,
} from "../ports/graph-catalog.js";
import { agentRoutes } from "./agents/agent-routes.js";
import { artifactRoutes } from "./artifacts/artifact-routes.js";
import { AssistantCatalog } from "./assistants/assistant-catalog.js";
import { assistantRoutes } from "./assistants/assistant-routes.js";
import { authMiddleware } from "./auth/auth-middleware.js";
import { type AuthProvider, createAuthProvider } from "./auth/auth-provider.js";
import { branchRoutes } from "./branches/branch-routes.js";
import { ThreadBranches } from "./branches/thread-branches.js";
import { consoleRoutes } from "./console/console-routes.js";
import { cronRoutes } from "./crons/cron-routes.js";
import { CronService } from "./crons/cron-service.js";
import type { GatewayDeps } from "./gateway-deps.js";
import type { GatewayServices } from "./gateway-services.js";
import { goalRoutes } from "./goal/goal-routes.js";
import { errorResponse } from "./http/error-response.js";
import type { GatewayEnv } from "./http/gateway-env.js";
import { DataReset } from "./internal/data-reset.js";
import { truncateRoutes } from "./internal/truncate-routes.js";
import { mcpRoutes } from "./mcp/mcp-routes.js";
import { memoryRoutes } from "./memory/memory-routes.js";
import { modelRoutes } from "./models/model-routes.js";
import { type PluginRoutesDeps, pluginRoutes } from "./plugin-routes/plugin-routes.js";
import { referenceFrontendRoutes } from "./reference/reference-routes.js";
import { replayRoutes } from "./replay/replay-routes.js";
import { runEventRoutes } from "./runs/run-event-routes.js";
import { RunGateway } from "./runs/run-gateway.js";
import { runRoutes } from "./runs/run-routes.js";
import { statelessRunRoutes } from "./runs/stateless-run-routes.js";
import { skillRoutes } from "./skills/skill-routes.js";
import { createSkillServices } from "./skills/skill-services.js";
import type { StreamTestHooks } from "./sse/run-event-stream.js";
import { ThreadGraphs } from "./state/thread-graphs.js";
import { ThreadStateService } from "./state/thread-state-service.js";
import { storeRoutes } from "./store/store-routes.js";
import { healthRoute, infoRoute, metricsRoute } from "./system-routes.js";
import { threadRoutes } from "./threads/thread-routes.js";
import { ThreadService } from "./threads/thread-service.js";
import { isUploadRequest, uploadRoutes } from "./uploads/upload-routes.js";
import { webRoutes } from "./web/web-routes.js";
import { workspaceChangesRoutes } from "./workspace-changes/workspace-changes-routes.js";

export interface GatewayOptions {
  /** The runtime parts the gateway works over (`src/app/` builds them from a Fawn). */
  deps: GatewayDeps;
  /** The graphs this server runs and how they describe themselves; default: an undescribed `lead_agent`. */
  graphs?: GraphCatalog;
  /** Built from `deps` unless given (the composition root shares one set with plugins). */
  services?: GatewayServices;
  /** Default: from `deps.config.auth.mode`. */
  auth?: AuthProvider;
  /** Idle time before an SSE heartbeat comment (default 15 s). */
  heartbeatMs?: number;
  /** Largest request body accepted (default 20 MiB, like the reference's proxy). */
  maxBodyBytes?: number;
  streamHooks?: StreamTestHooks;
  logger?: Logger;
  /** The built web workspace served at `/` (default `web/dist`); `false`: API only. */
  webRoot?: string | false;
}

const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
const DEFAULT_MAX_RECURSION_LIMIT = 1000;

/**
 * The first path segments of the LangGraph API served at the root too, as the LangGraph servers
 * serve it (`langgraph dev`, the platform): an SDK pointed at the bare server address works. None
 * is a route of the web workspace.
 */
const LANGGRAPH_ROOT_SEGMENTS = ["assistants", "threads", "runs", "store", "info", "internal"];

/**
 * The LangGraph-compatible API: `/health`, every route under `/api` and `/api/langgraph`, and the
 * LangGraph paths at the root.
 */
export function createGatewayApp(options: GatewayOptions): Hono<GatewayEnv> {
  const { deps } = options;
  const { config, stores } = deps;
  const logger = (options.logger ?? deps.logger).child({ component: "gateway" });
  const auth =
    options.auth ??
    createAuthProvider(config, {
      users: stores.users,
      usersPersist: stores.database !== null,
      loginAttempts: deps.loginAttempts,
      logger,
    });
  const services = options.services ?? createGatewayServices(deps, options);

  const app = new Hono<GatewayEnv>();
  const repeatedLines = new LogThrottle();
  app.onError((error, c) => errorResponse(error, c, logger, repeatedLines));
  const noRoute = (c: Context<GatewayEnv>) =>
    c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}.`), 404);
  app.notFound(noRoute);
  app.route(
    "/",
    healthRoute({
      database: stores.database,
      bridge: deps.bridge,
      logger,
      throttle: repeatedLines,
      ...(deps.draining ? { draining: deps.draining } : {}),
    }),
  );
  if (deps.metrics && config.metrics.enabled) app.route("/", metricsRoute(deps.metrics));
  const plugins: PluginRoutesDeps | null = deps.extensions
    ? { extensions: deps.extensions, agentRuns: deps.agentRuns ?? null, logger }
    : null;
  const api = apiRoutes(services, auth, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, plugins);
  app.route("/api", api);
  app.route("/api/langgraph", api);
  // The API's own handlers answer at the root, so its middlewares (auth, body limit) never run
  // for the workspace's pages.
  api.onError((error, c) => errorResponse(error, c, logger, repeatedLines));
  api.notFound(noRoute);
  for (const segment of LANGGRAPH_ROOT_SEGMENTS) {
    const answer = (c: Context<GatewayEnv>) => api.fetch(c.req.raw, c.env);
    app.all(`/${segment}`, answer);
    app.all(`/${segment}/*`, answer);
  }
  // Last: the UI and its SPA fallback never shadow `/api/*` or `/health`.
  if (options.webRoot !== false) app.route("/", webRoutes(options.webRoot));
  return app;
}

/** How route handlers' services are built; `createGatewayApp` builds them unless given. */
export type GatewayServicesOptions = Pick<
  GatewayOptions,
  "graphs" | "heartbeatMs" | "streamHooks" | "logger"
>;

/**
 * The services the routes call, over the runtime's parts. Built once per process: the composition
 * root shares them with in-process callers (plugin run handles) so both see one state.
 */
export function createGatewayServices(
  deps: GatewayDeps,
  options: GatewayServicesOptions = {},
): GatewayServices {
  const { config, stores } = deps;
  const logger = (options.logger ?? deps.logger).child({ component: "gateway" });
  const graphs =
    options.graphs ??
    staticGraphCatalog([undescribedGraph(LEAD_AGENT_GRAPH_ID, { description: "The lead agent." })]);
  const state = new ThreadStateService(
    deps.checkpointer,
    new ThreadGraphs(deps.checkpointer, { graphs, threads: stores.threads, runs: stores.runs }),
  );
  const threads = new ThreadService({ home: config.home, manager: deps.manager, stores }, state);
  const assistants = new AssistantCatalog(graphs, stores.assistants);
  const runs = new RunGateway(
    {
      stores,
      bridge: deps.bridge,
      manager: deps.manager,
      runService: deps.runService,
      logger: deps.logger,
    },
    threads,
    state,
    assistants,
    { maxRecursionLimit: config.max_recursion_limit ?? DEFAULT_MAX_RECURSION_LIMIT },
  );
  const graphStore = deps.graphStore ?? null;
  const reset = config.server.allow_truncate
    ? new DataReset({
        threads,
        threadRows: stores.threads,
        runs,
        manager: deps.manager,
        assistants: stores.assistants,
        graphStore,
      })
    : null;
  return {
    config,
    state,
    threads,
    assistants,
    runs,
    events: stores.events,
    graphStore,
    reset,
    ...(deps.crons ? { crons: new CronService({ ...deps.crons, threads, assistants }) } : {}),
    branches: new ThreadBranches({
      home: config.home,
      threads,
      threadRows: stores.threads,
      state,
      events: stores.events,
    }),
    customAgents: new CustomAgentStore(stores.documents),
    skills: createSkillServices(config, stores.documents, logger),
    memory: new MemoryStore({
      documents: stores.documents,
      legacyPaths: new FawnPaths(config.home),
      logger,
    }),
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    streamHooks: options.streamHooks,
    streamSubscribers: deps.metrics?.streamSubscribers,
    logger,
  };
}

function apiRoutes(
  s: GatewayServices,
  auth: AuthProvider,
  maxBodyBytes: number,
  plugins: PluginRoutesDeps | null,
): Hono<GatewayEnv> {
  const api = new Hono<GatewayEnv>();
  const limitBody = bodyLimit({
    maxSize: maxBodyBytes,
    onError: (c) =>
      c.json(errorBody("payload_too_large", `Request body exceeds ${maxBodyBytes} bytes.`), 413),
  });
  // Uploads stream to disk under their own limits (`uploads.max_total_size`).
  api.use("*", (c, next) => (isUploadRequest(c) ? next() : limitBody(c, next)));
  // Public: registered before the auth middleware, so it answers without a caller.
  api.route("/", infoRoute(s, auth.mode));
  auth.mountRoutes?.(api);
  api.use("*", authMiddleware(auth));
  api.route("/", threadRoutes(s));
  api.route("/", goalRoutes(s));
  api.route("/", branchRoutes(s.branches));
  api.route("/", replayRoutes(s));
  api.route("/", workspaceChangesRoutes(s));
  api.route("/", runRoutes(s));
  api.route("/", runEventRoutes(s));
  api.route("/", statelessRunRoutes(s));
  api.route("/", assistantRoutes(s));
  api.route("/", artifactRoutes(s));
  api.route("/", uploadRoutes(s));
  api.route("/", modelRoutes(s));
  api.route("/", skillRoutes(s));
  api.route("/", memoryRoutes(s));
  api.route("/", agentRoutes(s));
  api.route("/", storeRoutes(s));
  if (s.reset) api.route("/", truncateRoutes(s.reset));
  api.route("/", mcpRoutes(s, auth));
  if (s.crons) api.route("/", cronRoutes(s.crons));
  api.route("/", referenceFrontendRoutes(s));
  api.route("/", consoleRoutes(s));
  // After every host route, so host handlers win; behind the same auth.
  if (plugins) api.route("/", pluginRoutes(plugins));
  return api;
}
