import { EXTENSION_API_VERSION } from "../api/index.js";
import type { FawnPlugin } from "../api/plugin.js";
import { compatibleRange, isCompatibleApiVersion } from "./api-version.js";
import { isRecord } from "./payload-schema.js";

export const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
export const MAX_NAMESPACE_CHARS = 96;

/** Why `value` is not a `FawnPlugin` this host can load, or null when it is. */
export function pluginDeclarationProblem(value: unknown): string | null {
  if (!isRecord(value)) return `the export is not a plugin object (got ${describeType(value)})`;
  for (const key of ["namespace", "version", "apiVersion", "title"] as const) {
    const field = value[key];
    if (typeof field !== "string" || field.trim() === "") {
      return `the plugin's "${key}" must be a non-empty string`;
    }
  }
  if (value.description !== undefined && typeof value.description !== "string") {
    return `the plugin's "description" must be a string`;
  }
  if (typeof value.install !== "function") return `the plugin's "install" must be a function`;
  const namespace = String(value.namespace);
  if (namespace.length > MAX_NAMESPACE_CHARS || !NAMESPACE_PATTERN.test(namespace)) {
    return `namespace "${namespace.slice(0, 120)}" is invalid: use dotted lowercase words (letters, digits, "-"), at most ${MAX_NAMESPACE_CHARS} characters, e.g. "community.agent-teams"`;
  }
  const apiVersion = String(value.apiVersion);
  if (!isCompatibleApiVersion(apiVersion, EXTENSION_API_VERSION)) {
    return `plugin "${namespace}" targets extension API ${apiVersion}, but this host implements ${EXTENSION_API_VERSION}; use a plugin release whose apiVersion is ${compatibleRange(apiVersion)} compatible with ${EXTENSION_API_VERSION}`;
  }
  return null;
}

/** Narrows after `pluginDeclarationProblem` returned null. */
export function isFawnPlugin(value: unknown): value is FawnPlugin {
  return pluginDeclarationProblem(value) === null;
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
