import { fileURLToPath } from "node:url";
import type { ModelConfig } from "../../core/config/schema.js";

/** The built-in offline model: replays the shipped demo script, needs no key and no network. */
export const DEMO_MODEL_NAME = "demo";

/** The shipped script (beside the code, so it travels with the package). */
export const DEMO_SCRIPT_PATH = fileURLToPath(new URL("../demo/demo-script.yaml", import.meta.url));

export const DEMO_DISPLAY_NAME = "Demo (offline, scripted)";
export const DEMO_DESCRIPTION =
  "Offline demo: replays a scripted session through the real runtime and tools. No API key needed; configure a model in config.yaml for real answers.";

export function demoModelConfig(): ModelConfig {
  return {
    name: DEMO_MODEL_NAME,
    display_name: DEMO_DISPLAY_NAME,
    description: DEMO_DESCRIPTION,
    use: "demo",
    model: DEMO_MODEL_NAME,
    supports_thinking: false,
    supports_reasoning_effort: false,
    supports_vision: false,
  };
}
