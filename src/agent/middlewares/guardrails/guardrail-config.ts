import type { z } from "zod";
import { guardrailsConfigSchema } from "../../../core/config/middleware-sections.js";
import { ConfigError } from "../../../core/errors.js";
import { parseConfigSection } from "../config-section.js";
import { type AllowlistPolicy, allowlistPolicy } from "./allowlist-policy.js";

export type GuardrailsConfig = z.output<typeof guardrailsConfigSchema>;

/** The configured guard, or null when `guardrails` is off. */
export interface GuardrailSettings {
  policy: AllowlistPolicy;
  failClosed: boolean;
}

const ALLOWLIST_CLASS = "AllowlistProvider";

/**
 * `guardrails` with the reference's built-in provider (`deerflow.guardrails.builtin:AllowlistProvider`,
 * or `allowlist`). Other providers are classes Fawn cannot load: refusing to start is safer than
 * running every tool unguarded.
 */
export function parseGuardrails(raw: unknown): GuardrailSettings | null {
  const config = parseConfigSection(guardrailsConfigSchema, raw, "guardrails");
  if (!config.enabled) return null;
  const provider = config.provider;
  if (!provider) {
    throw new ConfigError(
      "guardrails.enabled is true but guardrails.provider is not set: add provider: {use: deerflow.guardrails.builtin:AllowlistProvider, config: {denied_tools: [...]}} or set enabled: false.",
    );
  }
  const className = provider.use.split(/[:.]/).at(-1);
  if (provider.use !== "allowlist" && className !== ALLOWLIST_CLASS) {
    throw new ConfigError(
      `guardrails.provider.use "${provider.use}" cannot be loaded: Fawn ships only the built-in ${ALLOWLIST_CLASS} (use: allowlist, config: {allowed_tools, denied_tools}).`,
    );
  }
  return {
    policy: allowlistPolicy(
      toolList(provider.config.allowed_tools, "allowed_tools"),
      toolList(provider.config.denied_tools, "denied_tools") ?? [],
    ),
    failClosed: config.fail_closed,
  };
}

function toolList(value: unknown, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item === "string") ||
    value.length > 1000
  ) {
    throw new ConfigError(`guardrails.provider.config.${key} must be a list of tool names.`);
  }
  return value;
}
