import { isPlainObject } from "../../core/config/env-expansion.js";
import type { ModelConfig } from "../../core/config/schema.js";
import type { ProviderKind } from "./providers.js";

/** Keys of a model entry that describe it to Fawn; none of them is sent to the provider. */
const METADATA_KEYS = new Set([
  "use",
  "name",
  "display_name",
  "description",
  "supports_thinking",
  "supports_reasoning_effort",
  "supports_vision",
  "when_thinking_enabled",
  "when_thinking_disabled",
  "thinking",
  "context_window",
  "pricing",
  "script",
]);

export interface ThinkingOptions {
  /** Requested by the run (default on); only honoured when the model `supports_thinking`. */
  thinkingEnabled?: boolean | undefined;
  /** Requested by the run; only sent when the model `supports_reasoning_effort`. */
  reasoningEffort?: string | null | undefined;
}

/**
 * The provider keyword arguments of a model entry (snake_case, as in config.yaml) after the
 * thinking rules: on → merge `when_thinking_enabled` (and the `thinking` shortcut); off → merge
 * `when_thinking_disabled`, or switch thinking off the way the enabled settings switched it on.
 */
export function providerSettings(
  model: ModelConfig,
  kind: ProviderKind,
  options: ThinkingOptions = {},
): Record<string, unknown> {
  let settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(model)) {
    if (!METADATA_KEYS.has(key) && value !== undefined && value !== null) settings[key] = value;
  }
  if (model.supports_thinking) {
    const thinkingOn = options.thinkingEnabled ?? true;
    settings = deepMerge(
      settings,
      thinkingOn ? enabledThinking(model) : disabledThinking(model, kind),
    );
  }
  if (!model.supports_reasoning_effort) {
    delete settings.reasoning_effort;
  } else if (options.reasoningEffort) {
    settings.reasoning_effort = options.reasoningEffort;
  }
  return settings;
}

function enabledThinking(model: ModelConfig): Record<string, unknown> {
  const base = model.when_thinking_enabled ?? {};
  return model.thinking ? deepMerge(base, { thinking: model.thinking }) : base;
}

function disabledThinking(model: ModelConfig, kind: ProviderKind): Record<string, unknown> {
  if (model.when_thinking_disabled) return model.when_thinking_disabled;
  if (kind === "anthropic") return { thinking: { type: "disabled" } };
  const enabled = enabledThinking(model);
  const extraBody = isPlainObject(enabled.extra_body) ? enabled.extra_body : {};
  const off: Record<string, unknown> = {};
  // Undo what "on" did, in the same dialect: a `thinking` switch, or vLLM's chat-template flag.
  if ("thinking" in extraBody) off.thinking = { type: "disabled" };
  if ("chat_template_kwargs" in extraBody) off.chat_template_kwargs = { enable_thinking: false };
  const result: Record<string, unknown> = Object.keys(off).length > 0 ? { extra_body: off } : {};
  if (model.supports_reasoning_effort) result.reasoning_effort = "minimal";
  return result;
}

/** Plain objects merge key by key; anything else in `over` replaces what is in `base`. */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}
