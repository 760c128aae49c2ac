import { createHash } from "node:crypto";
import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, type ToolRunnableConfig, tool } from "@langchain/core/tools";
import { isPlainObject } from "../../core/config/env-expansion.js";
import { AgentRunError, describeError } from "../../core/errors.js";
import { DEFAULT_USER_ID } from "../../core/paths.js";
import type { AgentRunsProvider } from "../../extensions/agent-runs-provider.js";
import type { ModelTool, ToolContext } from "../../extensions/api/plugin.js";
import {
  compilePayloadCheck,
  type LoadedExtensions,
  type LoadedPlugin,
} from "../../extensions/host/index.js";

export const PLUGIN_TOOL_MASK = "Plugin tool unavailable or input rejected.";
export const MAX_PLUGIN_TOOL_PAYLOAD_BYTES = 256 * 1024;
export const MAX_PLUGIN_TOOL_RESULT_BYTES = 64 * 1024;
export const PLUGIN_TOOL_TIMEOUT_MS = 30_000;

/**
 * The name a plugin tool is exported under: `ext_<namespace>_<name>_<hash>`, the namespace and
 * name shortened and the hash of both keeping it unique. The `ext_` prefix keeps it clear of
 * built-in and MCP tool names.
 */
export function pluginToolName(namespace: string, name: string): string {
  const space = namespace.replace(/[^a-z0-9_]/g, "_").slice(0, 20);
  const digest = createHash("sha256").update(`${namespace}:${name}`).digest("hex").slice(0, 12);
  return `ext_${space}_${name.slice(0, 25)}_${digest}`;
}

export interface PluginToolsOptions {
  extensions: LoadedExtensions;
  /** Run handles for the run's user; null: tools get `agentRuns: null`. */
  agentRuns: AgentRunsProvider | null;
  /** Test seam (default 30 s). */
  timeoutMs?: number;
}

/**
 * Every loaded plugin's model tools as LangChain tools. A call never fails the run: a rejected
 * payload, a handler that throws or hangs, or an oversized result becomes an error ToolMessage
 * (and, for the plugin's faults, a `tool` diagnostic).
 */
export function createPluginTools(options: PluginToolsOptions): StructuredToolInterface[] {
  return options.extensions.plugins.flatMap((plugin) =>
    plugin.contributions.tools.map((modelTool) => pluginTool(plugin, modelTool, options)),
  );
}

function pluginTool(
  plugin: LoadedPlugin,
  modelTool: ModelTool,
  options: PluginToolsOptions,
): StructuredToolInterface {
  const name = pluginToolName(plugin.namespace, modelTool.name);
  const checkPayload = compilePayloadCheck(modelTool.inputSchema);
  const timeoutMs = options.timeoutMs ?? PLUGIN_TOOL_TIMEOUT_MS;
  const diagnostics = options.extensions.diagnostics;
  const record = (level: "error" | "warning", message: string) =>
    diagnostics.record({
      plugin: plugin.label,
      namespace: plugin.namespace,
      level,
      stage: "tool",
      message: `tool ${modelTool.name}: ${message}`,
    });
  return tool(
    async (input: unknown, config: ToolRunnableConfig) => {
      const fail = (detail: string | null) => failure(name, config, detail);
      const size = jsonSize(input);
      if (size === null || size > MAX_PLUGIN_TOOL_PAYLOAD_BYTES) {
        record("warning", `payload refused: over ${MAX_PLUGIN_TOOL_PAYLOAD_BYTES} bytes of JSON`);
        return fail(`The input exceeds ${MAX_PLUGIN_TOOL_PAYLOAD_BYTES} bytes.`);
      }
      const invalid = checkPayload(input);
      if (invalid !== null || !isPlainObject(input)) {
        record("warning", `payload refused: ${invalid ?? "not an object"}`);
        return fail(invalid ?? "The input must be an object.");
      }
      let result: unknown;
      try {
        const context = toolContext(plugin, config, options.agentRuns);
        result = await withTimeout(modelTool.handler(input, context), timeoutMs);
      } catch (error) {
        record("error", describeError(error));
        return fail(shownReason(error));
      }
      const text = encodeResult(result);
      if (text === null) {
        record(
          "error",
          `result is not JSON-encodable or exceeds ${MAX_PLUGIN_TOOL_RESULT_BYTES} bytes`,
        );
        return fail(null);
      }
      return text;
    },
    { name, description: modelTool.description, schema: modelTool.inputSchema },
  );
}

/** What the handler sees: the run's user, thread and run (stamped by the worker), never the model's. */
function toolContext(
  plugin: LoadedPlugin,
  config: ToolRunnableConfig,
  provider: AgentRunsProvider | null,
): ToolContext {
  const configurable = isPlainObject(config.configurable) ? config.configurable : {};
  const userId = stringOr(configurable.user_id, DEFAULT_USER_ID);
  return {
    principal: { userId },
    settings: plugin.settings,
    agentRuns: provider?.bind({ userId, via: "run" })?.forPlugin(plugin.namespace) ?? null,
    threadId: stringOr(configurable.thread_id, ""),
    runId: typeof configurable.run_id === "string" ? configurable.run_id : null,
  };
}

/** Plugins signal bad input with an error message meant for the caller: the model may read it. */
function shownReason(error: unknown): string | null {
  if (error instanceof PluginToolTimeout) return error.message;
  if (error instanceof AgentRunError || error instanceof Error) return error.message || null;
  return null;
}

class PluginToolTimeout extends Error {}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new PluginToolTimeout(`The tool did not answer within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function failure(name: string, config: ToolRunnableConfig, detail: string | null): ToolMessage {
  const clipped = detail && detail.length > 500 ? `${detail.slice(0, 500)}…` : detail;
  return new ToolMessage({
    content: clipped ? `${PLUGIN_TOOL_MASK} ${clipped}` : PLUGIN_TOOL_MASK,
    tool_call_id: config.toolCall?.id ?? "",
    name,
    status: "error",
  });
}

/** The result as JSON text within the cap, or null. */
function encodeResult(result: unknown): string | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(result ?? null);
  } catch {
    return null;
  }
  if (text === undefined || Buffer.byteLength(text) > MAX_PLUGIN_TOOL_RESULT_BYTES) return null;
  return text;
}

function jsonSize(value: unknown): number | null {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : Buffer.byteLength(text);
  } catch {
    return null;
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
