import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Env } from "../../core/config/env-expansion.js";
import type { ModelConfig } from "../../core/config/schema.js";
import { ConfigError } from "../../core/errors.js";
import { loadScript } from "../scripted/load-script.js";
import { ScriptedChatModel } from "../scripted/scripted-chat-model.js";
import { createAnthropicModel } from "./anthropic-model.js";
import { DEMO_SCRIPT_PATH } from "./demo-model.js";
import { providerSettings, type ThinkingOptions } from "./model-settings.js";
import { createOpenAIModel } from "./openai-model.js";
import { type ProviderSpec, resolveProvider } from "./providers.js";

export interface CreateChatModelOptions extends ThinkingOptions {
  /** Where provider keys are looked up when an entry has no `api_key` (default process.env). */
  env?: Env;
  /** Relative `script:` paths resolve against this folder (default: the working directory). */
  baseDir?: string;
}

/**
 * A LangChain chat model for one `models:` entry. Provider problems (unknown `use`, missing key,
 * unreadable script) are ConfigErrors naming the model; no message ever contains a key.
 */
export async function createChatModel(
  model: ModelConfig,
  options: CreateChatModelOptions = {},
): Promise<BaseChatModel> {
  const provider = resolveProvider(model.name, model.use);
  const env = options.env ?? process.env;
  const settings = providerSettings(model, provider.kind, options);
  switch (provider.kind) {
    case "openai":
      return createOpenAIModel(model.name, provider, settings, env);
    case "anthropic":
      return createAnthropicModel(model.name, provider, settings, env);
    case "scripted":
      return createScriptedModel(model, provider, options.baseDir);
  }
}

async function createScriptedModel(
  model: ModelConfig,
  provider: ProviderSpec,
  baseDir: string | undefined,
): Promise<ScriptedChatModel> {
  const scriptPath = provider.name === "demo" ? DEMO_SCRIPT_PATH : model.script;
  if (typeof scriptPath !== "string" || scriptPath === "") {
    throw new ConfigError(
      `Model "${model.name}" uses the scripted model but has no script: add script: <file.yaml>.`,
    );
  }
  // Read now, so a broken script fails the run's start with a clear message.
  const script = await loadScript(scriptPath, baseDir);
  return new ScriptedChatModel({ script, modelName: `scripted:${model.name}` });
}
