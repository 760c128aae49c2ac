import type { FawnPlugin } from "../extensions/api/plugin.js";
import type { BuiltinPlugins } from "../extensions/host/index.js";

/**
 * Plugins that ship with Fawn, by the name a `plugins:` entry's `use` gives. Each loads its module
 * only when an entry names it.
 */
export const BUILTIN_PLUGINS: BuiltinPlugins = {
  "agent-teams": async () => (await import("../plugins/agent-teams/index.js")).agentTeamsPlugin,
} satisfies Record<string, () => Promise<FawnPlugin>>;
