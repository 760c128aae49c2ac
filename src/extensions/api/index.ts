/**
 * The extension API: everything a plugin may import. A plugin written against it runs inside any
 * Fawn server whose `EXTENSION_API_VERSION` is compatible with the plugin's `apiVersion`.
 */
export { AgentRunError } from "../../core/errors.js";
export type * from "./agent-runs.js";
export type * from "./plugin.js";

/** The extension API this host implements (`major.minor`). */
export const EXTENSION_API_VERSION = "1.0";
