import type { AIMessage } from "@langchain/core/messages";
import { ConfigError } from "../../../core/errors.js";

/** A provider's "stopped for safety" signal on an answer. */
export interface SafetyTermination {
  detector: string;
  reason_field: "finish_reason" | "stop_reason";
  reason_value: string;
  extras: Record<string, unknown>;
}

export interface SafetyDetector {
  readonly name: string;
  detect(message: AIMessage): SafetyTermination | null;
}

/** One `safety_finish_reason.detectors` entry: a built-in detector by the reference's class path. */
export interface DetectorEntry {
  use: string;
  config: Record<string, unknown>;
}

const GEMINI_SAFETY_REASONS = [
  "SAFETY",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "RECITATION",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
];

/** Adapters put stop signals in response_metadata, some in additional_kwargs: both are read. */
function signalOf(message: AIMessage, field: string): string | null {
  for (const container of [message.response_metadata, message.additional_kwargs]) {
    const value: unknown = container?.[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

function detector(
  name: string,
  field: SafetyTermination["reason_field"],
  values: readonly string[],
  extraKey?: string,
): SafetyDetector {
  const wanted = new Set(values.map((value) => value.toLowerCase()));
  return {
    name,
    detect(message) {
      const value = signalOf(message, field);
      if (value === null || !wanted.has(value.toLowerCase())) return null;
      const extra: unknown = extraKey ? message.response_metadata?.[extraKey] : undefined;
      return {
        detector: name,
        reason_field: field,
        reason_value: value,
        extras: extraKey && extra ? { [extraKey]: extra } : {},
      };
    },
  };
}

/** The built-ins, by the reference's class name and by their own name. */
const BUILT_INS: Record<string, (config: Record<string, unknown>, use: string) => SafetyDetector> =
  {
    OpenAICompatibleContentFilterDetector: (config, use) =>
      detector(
        "openai_compatible_content_filter",
        "finish_reason",
        reasons(config, "finish_reasons", use) ?? ["content_filter"],
        "content_filter_results",
      ),
    AnthropicRefusalDetector: (config, use) =>
      detector(
        "anthropic_refusal",
        "stop_reason",
        reasons(config, "stop_reasons", use) ?? ["refusal"],
      ),
    GeminiSafetyDetector: (config, use) =>
      detector(
        "gemini_safety",
        "finish_reason",
        reasons(config, "finish_reasons", use) ?? GEMINI_SAFETY_REASONS,
        "safety_ratings",
      ),
  };
const SHORT_NAMES: Record<string, string> = {
  openai_compatible_content_filter: "OpenAICompatibleContentFilterDetector",
  anthropic_refusal: "AnthropicRefusalDetector",
  gemini_safety: "GeminiSafetyDetector",
};

/** OpenAI-compatible `content_filter`, Anthropic `refusal`, Gemini's safety reasons. */
export function defaultDetectors(): SafetyDetector[] {
  return Object.entries(BUILT_INS).map(([use, build]) => build({}, use));
}

/**
 * Detectors for configured entries. Custom detector classes cannot be loaded into Fawn; a
 * built-in's reason list covers a provider with its own tokens (`finish_reasons: [sensitive]`).
 */
export function detectorsFor(entries: readonly DetectorEntry[]): SafetyDetector[] {
  return entries.map((entry) => {
    const className = entry.use.split(/[:.]/).at(-1) ?? entry.use;
    const build = BUILT_INS[SHORT_NAMES[entry.use] ?? className];
    if (!build) {
      throw new ConfigError(
        `safety_finish_reason.detectors: "${entry.use}" is not a built-in detector; Fawn cannot load detector classes. ` +
          `Use ${Object.keys(BUILT_INS).join(", ")} and list your provider's reasons in its config (finish_reasons or stop_reasons).`,
      );
    }
    return build(entry.config, entry.use);
  });
}

function reasons(config: Record<string, unknown>, key: string, use: string): string[] | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((item) => typeof item === "string")
  ) {
    throw new ConfigError(
      `safety_finish_reason.detectors (${use}): config.${key} must be a non-empty list of strings.`,
    );
  }
  return value;
}
