import type { ModelInfo } from "../../agent/models/list-models.js";

/**
 * A model as `GET /api/models` shows it: the reference's fields (`name`, `model`, `display_name`,
 * `description`, `supports_thinking`, `supports_reasoning_effort`) plus what Fawn's UI uses.
 * Built field by field from an allow-list, so no key, base URL or provider kwarg can leak.
 */
export interface ApiModel {
  name: string;
  model: string;
  display_name: string;
  description: string | null;
  provider: string;
  supports_thinking: boolean;
  supports_reasoning_effort: boolean;
  supports_vision: boolean;
  context_window: number | null;
  /** The built-in scripted demo: answers are replayed, not generated. */
  offline_demo: boolean;
  /** The model a run uses when it names none. */
  is_default: boolean;
}

export function toApiModel(info: ModelInfo): ApiModel {
  return {
    name: info.name,
    model: info.model,
    display_name: info.display_name,
    description: info.description,
    provider: info.provider,
    supports_thinking: info.supports_thinking,
    supports_reasoning_effort: info.supports_reasoning_effort,
    supports_vision: info.supports_vision,
    context_window: info.context_window,
    offline_demo: info.offline_demo,
    is_default: info.is_default,
  };
}
