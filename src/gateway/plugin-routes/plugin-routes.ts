import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { StatusCode } from "hono/utils/http-status";
import { isPlainObject } from "../../core/config/env-expansion.js";
import { errorBody, NotFoundError, ValidationError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { AgentRunsProvider } from "../../extensions/agent-runs-provider.js";
import type { ActionContext, PluginRoute } from "../../extensions/api/plugin.js";
import type { LoadedExtensions, LoadedPlugin } from "../../extensions/host/index.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { assertJsonWithinLimits, type JsonLimits } from "../http/json-limits.js";
import { readJsonBody } from "../http/validation.js";
import { extensionsListing } from "./extensions-listing.js";
import { binaryAnswerProblem, isBinaryAnswer, sendBinary } from "./plugin-binary.js";
import { pluginFailureResponse, record } from "./plugin-failure.js";

export interface PluginRoutesDeps {
  extensions: LoadedExtensions;
  agentRuns: AgentRunsProvider | null;
  logger: Logger;
}

/** Plugin requests are small commands, not uploads. */
export const MAX_PLUGIN_BODY_BYTES = 1024 * 1024;
const PLUGIN_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxObjectKeys: 1000, maxValues: 50_000 };

/**
 * `GET /extensions`, `POST /extensions/<namespace>/actions/<name>` and each plugin's own routes
 * under `/extensions/<namespace>/`. Mounted after the auth middleware: every handler sees the
 * signed-in caller and acts for them only.
 */
export function pluginRoutes(deps: PluginRoutesDeps): Hono<GatewayEnv> {
  const { extensions } = deps;
  const app = new Hono<GatewayEnv>();
  const byNamespace = new Map(extensions.plugins.map((plugin) => [plugin.namespace, plugin]));
  app.use(
    "/extensions/*",
    bodyLimit({
      maxSize: MAX_PLUGIN_BODY_BYTES,
      onError: (c) =>
        c.json(
          errorBody(
            "payload_too_large",
            `Plugin request bodies are limited to ${MAX_PLUGIN_BODY_BYTES} bytes.`,
          ),
          413,
        ),
    }),
  );

  app.get("/extensions", (c) => c.json(extensionsListing(extensions)));

  app.post("/extensions/:namespace/actions/:name", async (c) => {
    const namespace = c.req.param("namespace");
    const plugin = byNamespace.get(namespace);
    if (!plugin) throw new NotFoundError(`No plugin with namespace "${namespace}" is loaded.`);
    const name = c.req.param("name");
    const action = plugin.contributions.actions.find((candidate) => candidate.name === name);
    if (!action) {
      throw new NotFoundError(`Plugin "${namespace}" has no action "${name}".`);
    }
    const body = await readJsonBody(c, { optional: true });
    assertJsonWithinLimits(body, "body", PLUGIN_JSON_LIMITS);
    if (!isPlainObject(body)) {
      throw new ValidationError("Invalid request body: an action takes a JSON object.");
    }
    let result: unknown;
    try {
      result = await action.handler(body, actionContext(c, plugin, deps));
    } catch (error) {
      return pluginFailureResponse(c, error, plugin, extensions, `action ${name}`);
    }
    return c.json(result ?? null);
  });

  for (const plugin of extensions.plugins) {
    for (const route of plugin.contributions.routes) {
      app.on(route.method, `/extensions/${plugin.namespace}${route.path}`, (c) =>
        servePluginRoute(c, plugin, route, deps),
      );
    }
  }

  // Anything else under a plugin's prefix: a 404 in the house shape, not the web fallback.
  app.all("/extensions/*", (c) => {
    throw new NotFoundError(`No extension route for ${c.req.method} ${c.req.path}.`);
  });
  return app;
}

async function servePluginRoute(
  c: Context<GatewayEnv>,
  plugin: LoadedPlugin,
  route: PluginRoute,
  deps: PluginRoutesDeps,
): Promise<Response> {
  const body = route.method === "GET" ? null : await readOptionalJson(c);
  let answer: Awaited<ReturnType<PluginRoute["handler"]>>;
  try {
    answer = await route.handler(
      { params: c.req.param(), query: c.req.query(), body },
      actionContext(c, plugin, deps),
    );
  } catch (error) {
    return pluginFailureResponse(
      c,
      error,
      plugin,
      deps.extensions,
      `route ${route.method} ${route.path}`,
    );
  }
  const status = answer?.status ?? 200;
  const problem =
    !Number.isInteger(status) || status < 200 || status > 599
      ? `answered status ${String(status)}`
      : isBinaryAnswer(answer)
        ? binaryAnswerProblem(answer)
        : null;
  if (problem !== null) {
    record(deps.extensions, plugin, "error", `route ${route.method} ${route.path} ${problem}`);
    return c.json(errorBody("bad_request", "The plugin gave an invalid answer."), 400);
  }
  if (status === 204 || status === 304) return c.body(null, status as StatusCode);
  if (isBinaryAnswer(answer)) return sendBinary(c, answer, status as 200);
  return c.json(answer.body ?? null, status as 200);
}

/** A plugin route's body: null when empty, else JSON within the limits. */
async function readOptionalJson(c: Context<GatewayEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError("Request body is not valid JSON.");
  }
  assertJsonWithinLimits(parsed, "body", PLUGIN_JSON_LIMITS);
  return parsed;
}

/** Who the plugin acts for: the signed-in caller; API-token callers get no run handle. */
function actionContext(
  c: Context<GatewayEnv>,
  plugin: LoadedPlugin,
  deps: PluginRoutesDeps,
): ActionContext {
  const principal = c.get("principal");
  return {
    principal: { userId: principal.userId },
    settings: plugin.settings,
    agentRuns:
      deps.agentRuns
        ?.bind({ userId: principal.userId, via: principal.via })
        ?.forPlugin(plugin.namespace) ?? null,
  };
}
