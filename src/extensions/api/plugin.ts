import type { Kysely } from "kysely";
import type { AgentRuns } from "./agent-runs.js";

/*
 * What a plugin is: a declaration the host loads from `config.yaml` `plugins:`, and the
 * contributions its `install` returns. A plugin imports only this folder (`src/extensions/api/`).
 */

/** The user a plugin acts for. */
export interface ExtensionPrincipal {
  userId: string;
  isAdmin?: boolean;
}

/** What an action handler is given: who called, the plugin's config, and a run handle. */
export interface ActionContext {
  principal: ExtensionPrincipal;
  /** The plugin's own `config` from its `plugins:` entry. */
  settings: Readonly<Record<string, unknown>>;
  /** Runs on behalf of `principal`; null where the host offers none. */
  agentRuns: AgentRuns | null;
}

/** What a model tool's handler is given: an action context plus the calling run. */
export interface ToolContext extends ActionContext {
  threadId: string;
  /** The run that called the tool; null when unknown. */
  runId: string | null;
}

/** An operation exposed over HTTP as `POST /api/extensions/<namespace>/actions/<name>`. */
export interface BackendAction {
  /** Lowercase slug, unique in the plugin. */
  name: string;
  handler(payload: Record<string, unknown>, context: ActionContext): Promise<unknown>;
}

/** A tool the lead agent's model may call; exposed under a namespaced name. */
export interface ModelTool {
  /** `^[a-z][a-z0-9_]{0,63}$`, unique in the plugin. */
  name: string;
  description: string;
  /** An inline JSON Schema object for the payload. */
  inputSchema: Record<string, unknown>;
  handler(payload: Record<string, unknown>, context: ToolContext): Promise<unknown>;
}

/** A long-lived part of a plugin the host starts, ticks and stops. */
export interface ExtensionService {
  name: string;
  start(deps: ExtensionServiceDeps): Promise<void>;
  /** Called by the host every `tickIntervalMs` once started; a throw is a diagnostic, not a stop. */
  tick?(signal: AbortSignal): Promise<void>;
  tickIntervalMs?: number;
  /** Stop and drain; bounded by the host (30 s). */
  stop(): Promise<void>;
}

/** What the host gives a service when it starts it. */
export interface ExtensionServiceDeps {
  /** The host's `database.url` (`sqlite:…`, `postgres://…`, or `memory:`). */
  databaseUrl: string;
  /** A folder the plugin owns: `<home>/extensions/<namespace>`. */
  dataDir: string;
  /**
   * A Kysely connection for the plugin's own tables, through the host's SQL layer: the host's
   * database (SQLite or PostgreSQL), or a SQLite file of the plugin's when `sqlitePath` is given.
   * The plugin creates and migrates its tables (prefix them with its name) and closes it on stop.
   */
  openDatabase(options?: { sqlitePath?: string }): Promise<PluginDatabase>;
  /** A run handle for a user, already bound to this plugin's namespace (server-side callers only). */
  agentRunsFor(userId: string): AgentRuns;
  logger: PluginLogger;
}

export interface PluginLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A plugin module's export: its identity and `install`, which the host calls once at start with
 * the entry's `config`. A throw from `install` is a load failure of this plugin only.
 */
export interface FawnPlugin {
  /** Dotted lowercase name, unique among loaded plugins (e.g. `community.agent-teams`). */
  namespace: string;
  /** The plugin's own version. */
  version: string;
  /** The extension API it was written for (`EXTENSION_API_VERSION`); an incompatible one is refused. */
  apiVersion: string;
  title: string;
  description?: string;
  install(
    config: Readonly<Record<string, unknown>>,
  ): PluginContributions | Promise<PluginContributions>;
}

/** Everything a plugin adds to the host. */
export interface PluginContributions {
  actions?: BackendAction[];
  tools?: ModelTool[];
  services?: ExtensionService[];
  middlewares?: PluginMiddleware[];
  routes?: PluginRoute[];
}

/** A hook around the lead agent's model calls; ordered by `order`, then registration. */
export interface PluginMiddleware {
  name: string;
  /** Lower is outer (runs first); default 0. */
  order?: number;
  /**
   * Before each model call: extra messages the model sees for this call only (not persisted).
   * A throw is a diagnostic; the model call goes on without them.
   */
  beforeModel?(
    request: PluginModelRequest,
    context: ToolContext,
  ): Promise<PluginModelHookResult | undefined>;
}

/** A message as a plugin sees it: role and text. */
export interface PluginMessage {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  id?: string;
}

export interface PluginModelRequest {
  messages: readonly PluginMessage[];
}

export interface PluginModelHookResult {
  extraMessages?: PluginMessage[];
}

/** An HTTP route under `/api/extensions/<namespace>/`, behind the server's auth. */
export interface PluginRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to the namespace's prefix, starts with `/`; `:name` segments are parameters. */
  path: string;
  handler(request: PluginHttpRequest, context: ActionContext): Promise<PluginHttpResponse>;
}

export interface PluginHttpRequest {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  /** The parsed JSON body, or null. */
  body: unknown;
}

/** A route's answer: a JSON body, or raw bytes (`PluginBinaryResponse`). */
export type PluginHttpResponse = PluginJsonResponse | PluginBinaryResponse;

export interface PluginJsonResponse {
  status?: number;
  /** JSON-encoded for the answer. */
  body: unknown;
}

/**
 * Raw bytes, e.g. a file. The host sends `Content-Type`, `Content-Length` and `nosniff`, and
 * decides the disposition: only types safe to show (text, JSON, raster images, PDF) are `inline`;
 * anything else, HTML and SVG included, is an `attachment`.
 */
export interface PluginBinaryResponse {
  status?: number;
  bytes: Uint8Array;
  /**
   * A MIME type, e.g. `text/markdown; charset=utf-8`. Without it the host derives one from
   * `filename`'s extension (as it does for thread artifacts), else `application/octet-stream`.
   */
  contentType?: string;
  /** The name a download is saved under. */
  filename?: string;
  /** Ask for `attachment` even for a type that could be shown inline. */
  download?: boolean;
}

/** A plugin's SQL connection: `db.withTables<T>()` types it with the plugin's tables. */
export interface PluginDatabase {
  dialect: "sqlite" | "postgres";
  db: Kysely<Record<string, never>>;
  close(): Promise<void>;
}
