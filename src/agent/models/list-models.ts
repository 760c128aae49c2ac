import { REDACTED } from "../../core/config/redact.js";
import type { FawnConfig, ModelConfig } from "../../core/config/schema.js";
import { DEMO_MODEL_NAME, demoModelConfig } from "./demo-model.js";
import { findProvider } from "./providers.js";

/** What may be shown about a model: never its key, only whether one is set. */
export interface ModelInfo {
  name: string;
  model: string;
  display_name: string;
  description: string | null;
  /** Fawn's provider name (`openai`, `anthropic`, `scripted`, …); `unknown` for a bad `use`. */
  provider: string;
  supports_thinking: boolean;
  supports_reasoning_effort: boolean;
  supports_vision: boolean;
  context_window: number | null;
  /** `***` when a key is configured, null otherwise. */
  api_key: typeof REDACTED | null;
  /** True for the built-in scripted demo: answers are replayed, not generated. */
  offline_demo: boolean;
  is_default: boolean;
}

/**
 * The models a user can pick, first = default. With none configured, the built-in offline demo
 * model is the one entry, so a fresh install works without a key.
 */
export function listModels(config: Pick<FawnConfig, "models">): ModelInfo[] {
  const models = config.models.length > 0 ? config.models : [demoModelConfig()];
  return models.map((model, index) => describeModel(model, index === 0));
}

export function describeModel(model: ModelConfig, isDefault = false): ModelInfo {
  const provider = findProvider(model.use);
  const offlineDemo = provider?.name === "demo";
  return {
    name: model.name,
    model: model.model,
    display_name: model.display_name ?? model.name,
    description: model.description ?? null,
    provider: provider?.name ?? "unknown",
    supports_thinking: model.supports_thinking,
    supports_reasoning_effort: model.supports_reasoning_effort,
    supports_vision: model.supports_vision,
    context_window: model.context_window ?? null,
    api_key: model.api_key ? REDACTED : null,
    offline_demo: offlineDemo,
    is_default: isDefault,
  };
}

/**
 * The entry a run uses: the named one, else the first configured, else the demo model. An unknown
 * name falls back to the default (the gateway rejects unknown names before a run is admitted).
 */
export function selectModelConfig(
  config: Pick<FawnConfig, "models">,
  requested: string | undefined,
): { model: ModelConfig; fellBack: boolean } {
  const fallback = config.models[0] ?? demoModelConfig();
  if (!requested) return { model: fallback, fellBack: false };
  const found = config.models.find((model) => model.name === requested);
  if (found) return { model: found, fellBack: false };
  if (requested === DEMO_MODEL_NAME) return { model: demoModelConfig(), fellBack: false };
  return { model: fallback, fellBack: true };
}
