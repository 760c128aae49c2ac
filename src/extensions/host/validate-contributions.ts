import { ConfigError } from "../../core/errors.js";
import type {
  BackendAction,
  ExtensionService,
  ModelTool,
  PluginContributions,
  PluginMiddleware,
  PluginRoute,
} from "../api/plugin.js";
import type { PluginParts } from "./loaded-extensions.js";
import { isRecord, payloadSchemaProblem } from "./payload-schema.js";
import { describeType } from "./validate-plugin.js";

export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const ACTION_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
const MAX_ACTION_NAME_CHARS = 64;
const ROUTE_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
/** `/a/b`, `/items/:id`: literal or `:param` segments; no wildcards, dot-segments or empty parts. */
const ROUTE_SEGMENT = /^(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9_~-][A-Za-z0-9._~-]*)$/;
const MAX_ROUTE_CHARS = 200;
const MIN_TICK_INTERVAL_MS = 10;

/**
 * Checks what `install` returned and freezes it into `PluginParts`, or throws a
 * `ConfigError` naming the first problem. Nothing is registered from a plugin whose contributions fail here.
 */
export function validateContributions(value: unknown): PluginParts {
  if (!isRecord(value)) {
    throw new ConfigError(`install() must return an object (got ${describeType(value)})`);
  }
  const actions = listOf<BackendAction>(value, "actions");
  const tools = listOf<ModelTool>(value, "tools");
  const services = listOf<ExtensionService>(value, "services");
  const middlewares = listOf<PluginMiddleware>(value, "middlewares");
  const routes = listOf<PluginRoute>(value, "routes");
  checkActions(actions);
  checkTools(tools);
  checkServices(services);
  checkMiddlewares(middlewares);
  checkRoutes(routes);
  return Object.freeze({ actions, tools, services, middlewares, routes });
}

function listOf<T>(value: Record<string, unknown>, key: keyof PluginContributions): readonly T[] {
  const list = value[key];
  if (list === undefined) return Object.freeze([]);
  if (!Array.isArray(list)) throw new ConfigError(`"${key}" must be an array`);
  list.forEach((item, index) => {
    if (!isRecord(item)) throw new ConfigError(`${key}[${index}] must be an object`);
  });
  return Object.freeze([...list]);
}

function checkActions(actions: readonly BackendAction[]): void {
  const seen = new Set<string>();
  actions.forEach((action, index) => {
    const where = `actions[${index}]`;
    if (
      typeof action.name !== "string" ||
      action.name.length > MAX_ACTION_NAME_CHARS ||
      !ACTION_NAME_PATTERN.test(action.name)
    ) {
      throw new ConfigError(
        `${where}: name must be a lowercase slug (letters, digits, "-" or "_"), at most ${MAX_ACTION_NAME_CHARS} characters`,
      );
    }
    unique(seen, action.name, `${where}: action "${action.name}" is declared twice`);
    requireFunction(action.handler, `${where}: handler must be a function`);
  });
}

function checkTools(tools: readonly ModelTool[]): void {
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const where = `tools[${index}]`;
    if (typeof tool.name !== "string" || !TOOL_NAME_PATTERN.test(tool.name)) {
      throw new ConfigError(
        `${where}: name must match ${TOOL_NAME_PATTERN.source} (lowercase, digits, "_")`,
      );
    }
    unique(seen, tool.name, `${where}: tool "${tool.name}" is declared twice`);
    if (typeof tool.description !== "string" || tool.description.trim() === "") {
      throw new ConfigError(`${where}: tool "${tool.name}" needs a non-empty description`);
    }
    const schemaProblem = payloadSchemaProblem(tool.inputSchema);
    if (schemaProblem) throw new ConfigError(`${where}: ${schemaProblem}`);
    requireFunction(tool.handler, `${where}: handler must be a function`);
  });
}

function checkServices(services: readonly ExtensionService[]): void {
  const seen = new Set<string>();
  services.forEach((service, index) => {
    const where = `services[${index}]`;
    if (typeof service.name !== "string" || service.name.trim() === "") {
      throw new ConfigError(`${where}: name must be a non-empty string`);
    }
    unique(seen, service.name, `${where}: service "${service.name}" is declared twice`);
    requireFunction(service.start, `${where}: start must be a function`);
    requireFunction(service.stop, `${where}: stop must be a function`);
    if (service.tick !== undefined)
      requireFunction(service.tick, `${where}: tick must be a function`);
    const interval = service.tickIntervalMs;
    if (
      interval !== undefined &&
      (typeof interval !== "number" ||
        !Number.isFinite(interval) ||
        interval < MIN_TICK_INTERVAL_MS)
    ) {
      throw new ConfigError(
        `${where}: tickIntervalMs must be a number of at least ${MIN_TICK_INTERVAL_MS}`,
      );
    }
  });
}

function checkMiddlewares(middlewares: readonly PluginMiddleware[]): void {
  middlewares.forEach((middleware, index) => {
    const where = `middlewares[${index}]`;
    if (typeof middleware.name !== "string" || middleware.name.trim() === "") {
      throw new ConfigError(`${where}: name must be a non-empty string`);
    }
    const { order } = middleware;
    if (order !== undefined && (typeof order !== "number" || !Number.isFinite(order))) {
      throw new ConfigError(`${where}: order must be a finite number`);
    }
    if (middleware.beforeModel !== undefined) {
      requireFunction(middleware.beforeModel, `${where}: beforeModel must be a function`);
    }
  });
}

function checkRoutes(routes: readonly PluginRoute[]): void {
  const seen = new Set<string>();
  routes.forEach((route, index) => {
    const where = `routes[${index}]`;
    if (typeof route.method !== "string" || !ROUTE_METHODS.has(route.method)) {
      throw new ConfigError(`${where}: method must be one of ${[...ROUTE_METHODS].join(", ")}`);
    }
    const problem = routePathProblem(route.path);
    if (problem) throw new ConfigError(`${where}: ${problem}`);
    // `:id` and `:name` match the same requests: compare shapes, not parameter names.
    const shape = route.path.replace(/:[A-Za-z0-9_]+/g, ":");
    unique(
      seen,
      `${route.method} ${shape}`,
      `${where}: ${route.method} ${route.path} is declared twice`,
    );
    requireFunction(route.handler, `${where}: handler must be a function`);
  });
}

function routePathProblem(path: unknown): string | null {
  if (typeof path !== "string" || !path.startsWith("/") || path.length > MAX_ROUTE_CHARS) {
    return `path must be a string starting with "/", at most ${MAX_ROUTE_CHARS} characters`;
  }
  const segments = path.slice(1).split("/");
  if (path === "/") return null;
  for (const segment of segments) {
    if (!ROUTE_SEGMENT.test(segment)) {
      return `path "${path}" has an invalid segment "${segment}" (use literal words or ":param")`;
    }
  }
  // The host answers `/actions/<name>` itself; a route there would never be reached.
  if (segments[0] === "actions") return `path "${path}" is reserved for actions`;
  return null;
}

function unique(seen: Set<string>, key: string, message: string): void {
  if (seen.has(key)) throw new ConfigError(message);
  seen.add(key);
}

function requireFunction(value: unknown, message: string): void {
  if (typeof value !== "function") throw new ConfigError(message);
}
