import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AgentRunError, describeError, errorBody, isFawnError } from "../../core/errors.js";
import type { LoadedExtensions, LoadedPlugin } from "../../extensions/host/index.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/** Errors a plugin throws on purpose; anything else (TypeError, a thrown string) is a bug of it. */
const DELIBERATE_ERROR_NAMES = new Set(["Error", "AgentRunError"]);

/**
 * A plugin handler's failure as an HTTP answer, never a 5xx for bad input: an `AgentRunError`
 * (or any Fawn error) keeps its status and `{detail, code}`; a plain `Error` is the
 * plugin refusing the input, a 400 with its message. A plugin bug is a 400 too, and a diagnostic.
 */
export function pluginFailureResponse(
  c: Context<GatewayEnv>,
  error: unknown,
  plugin: LoadedPlugin,
  extensions: LoadedExtensions,
  what: string,
): Response {
  const runError = AgentRunError.from(error);
  if (runError) {
    if (runError.status >= 500)
      record(extensions, plugin, "warning", `${what}: ${runError.message}`);
    const status = isFawnError(error) ? error.status : runError.status;
    return c.json(runError.toBody(), validStatus(status));
  }
  const deliberate = error instanceof Error && DELIBERATE_ERROR_NAMES.has(error.name);
  if (!deliberate) record(extensions, plugin, "error", `${what} failed: ${describeError(error)}`);
  const message =
    error instanceof Error && error.message
      ? error.message
      : `The plugin could not handle this request (${what}).`;
  return c.json(errorBody("bad_request", message.slice(0, 2000)), 400);
}

export function record(
  extensions: LoadedExtensions,
  plugin: LoadedPlugin,
  level: "error" | "warning",
  message: string,
): void {
  extensions.diagnostics.record({
    plugin: plugin.label,
    namespace: plugin.namespace,
    level,
    stage: "action",
    message,
  });
}

function validStatus(status: number): ContentfulStatusCode {
  return (
    Number.isInteger(status) && status >= 400 && status <= 599 ? status : 400
  ) as ContentfulStatusCode;
}
