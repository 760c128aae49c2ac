import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { describeError } from "../../../core/errors.js";
import type { AgentRunsProvider } from "../../../extensions/agent-runs-provider.js";
import type {
  PluginMessage,
  PluginMiddleware,
  ToolContext,
} from "../../../extensions/api/plugin.js";
import type { LoadedExtensions, LoadedPlugin } from "../../../extensions/host/index.js";
import { contentText, HIDDEN_MESSAGE_NAMES } from "../conversation.js";
import type { AgentMiddleware, MiddlewareRuntime } from "../types.js";

const MAX_EXTRA_MESSAGES = 20;
const MAX_EXTRA_CHARS = 32_000;

/**
 * Plugins' `beforeModel` hooks as lead-agent middlewares, ordered by `order` then registration
 * (plugin load order, then list order). Each is isolated: a hook that throws (or returns
 * something malformed) is a diagnostic and the model call goes on without its messages. Extra
 * messages reach this one model call only; the thread never stores them.
 */
export function createPluginMiddlewares(
  extensions: LoadedExtensions,
  agentRuns: AgentRunsProvider | null,
): AgentMiddleware[] {
  const registered = extensions.plugins.flatMap((plugin) =>
    plugin.contributions.middlewares.map((middleware) => ({ plugin, middleware })),
  );
  return registered
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => (a.middleware.order ?? 0) - (b.middleware.order ?? 0) || a.index - b.index)
    .filter(({ middleware }) => middleware.beforeModel !== undefined)
    .map(({ plugin, middleware }) => isolated(plugin, middleware, extensions, agentRuns));
}

function isolated(
  plugin: LoadedPlugin,
  middleware: PluginMiddleware,
  extensions: LoadedExtensions,
  agentRuns: AgentRunsProvider | null,
): AgentMiddleware {
  return {
    name: `extension:${plugin.namespace}:${middleware.name}`,
    tag: "plugin",
    async wrapModelCall(request, next, runtime) {
      let extra: BaseMessage[] = [];
      try {
        const result = await middleware.beforeModel?.(
          { messages: request.messages.map(toPluginMessage) },
          contextOf(plugin, runtime, agentRuns),
        );
        extra = toExtraMessages(result?.extraMessages, plugin.namespace);
      } catch (error) {
        extensions.diagnostics.record({
          plugin: plugin.label,
          namespace: plugin.namespace,
          level: "error",
          stage: "tool",
          message: `middleware ${middleware.name}: beforeModel failed: ${describeError(error)}`,
        });
        extra = [];
      }
      if (extra.length === 0) return next(request);
      runtime.record("wrapModelCall", "plugin_messages", {
        namespace: plugin.namespace,
        count: extra.length,
      });
      return next({ ...request, messages: [...request.messages, ...extra] });
    },
  };
}

function contextOf(
  plugin: LoadedPlugin,
  runtime: MiddlewareRuntime,
  provider: AgentRunsProvider | null,
): ToolContext {
  const { userId } = runtime;
  return {
    principal: { userId },
    settings: plugin.settings,
    agentRuns: provider?.bind({ userId, via: "run" })?.forPlugin(plugin.namespace) ?? null,
    threadId: runtime.threadId ?? "",
    runId: runtime.runId ?? null,
  };
}

function toPluginMessage(message: BaseMessage): PluginMessage {
  const type = message.getType();
  const role: PluginMessage["role"] =
    type === "ai" ? "assistant" : type === "tool" ? "tool" : type === "system" ? "system" : "user";
  return {
    role,
    content: contentText(message.content),
    ...(message.id ? { id: message.id } : {}),
  };
}

/**
 * A plugin's extra messages as the model sees them. Non-assistant ones become hidden human notes
 * (a system message mid-conversation is refused by some providers); a malformed list throws.
 */
function toExtraMessages(messages: unknown, namespace: string): BaseMessage[] {
  if (messages === undefined) return [];
  if (!Array.isArray(messages) || messages.length > MAX_EXTRA_MESSAGES) {
    throw new Error(`extraMessages must be an array of at most ${MAX_EXTRA_MESSAGES} messages`);
  }
  return messages.map((message: PluginMessage) => {
    if (typeof message?.content !== "string" || message.content.length > MAX_EXTRA_CHARS) {
      throw new Error(
        `each extra message needs string content of at most ${MAX_EXTRA_CHARS} characters`,
      );
    }
    if (message.role === "assistant") return new AIMessage({ content: message.content });
    return new HumanMessage({
      content: message.content,
      name: HIDDEN_MESSAGE_NAMES.pluginContext,
      additional_kwargs: { extension_namespace: namespace },
    });
  });
}
