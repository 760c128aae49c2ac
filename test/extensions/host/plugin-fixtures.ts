import type { PluginEntry } from "../../../src/core/config/schema.js";
import { AgentRunError } from "../../../src/core/errors.js";
import type {
  AgentRuns,
  FawnPlugin,
  PluginContributions,
} from "../../../src/extensions/api/index.js";

/** A valid plugin whose contributions (or install failure) the test chooses. */
export function testPlugin(
  namespace: string,
  install: FawnPlugin["install"] = () => ({}),
  overrides: Partial<FawnPlugin> = {},
): FawnPlugin {
  return {
    namespace,
    version: "1.0.0",
    apiVersion: "1.0",
    title: namespace,
    install,
    ...overrides,
  };
}

export function contributing(contributions: PluginContributions): FawnPlugin["install"] {
  return () => contributions;
}

/** A `plugins:` entry as the config schema fills it in. */
export function entry(use: string, fields: Partial<PluginEntry> = {}): PluginEntry {
  return { use, enabled: true, config: {}, required: false, ...fields };
}

export const OBJECT_SCHEMA = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
  additionalProperties: false,
} as const;

/** A run handle double that only says which plugin it was bound to (every call is refused). */
export interface FakeAgentRuns extends AgentRuns {
  boundTo: string | null;
}

export function fakeAgentRuns(boundTo: string | null = null): FakeAgentRuns {
  const refuse = () => Promise.reject(new AgentRunError(503, "not in this test"));
  return {
    boundTo,
    forPlugin: (namespace) => fakeAgentRuns(namespace),
    createThread: refuse,
    start: refuse,
    resume: refuse,
    get: refuse,
    getState: refuse,
    wait: refuse,
    cancel: refuse,
    importArtifact: refuse,
    readArtifact: refuse,
    validateArtifactSource: refuse,
  };
}
