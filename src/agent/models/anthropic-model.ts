import { ChatAnthropic } from "@langchain/anthropic";
import type { Env } from "../../core/config/env-expansion.js";
import { ConfigError } from "../../core/errors.js";
import type { ProviderSpec } from "./providers.js";
import { dropUndefined, SettingReader } from "./setting-readers.js";

type AnthropicFields = NonNullable<ConstructorParameters<typeof ChatAnthropic>[0]>;
type ThinkingConfig = NonNullable<AnthropicFields["thinking"]>;

/** Builds ChatAnthropic from snake_case provider settings. */
export function createAnthropicModel(
  modelName: string,
  provider: ProviderSpec,
  settings: Record<string, unknown>,
  env: Env,
): ChatAnthropic {
  const read = new SettingReader(modelName, { ...settings });
  const fromEnv = provider.apiKeyEnv ? env[provider.apiKeyEnv] : undefined;
  const apiKey = read.string("api_key", "anthropic_api_key") ?? (fromEnv || undefined);
  if (!apiKey) {
    throw new ConfigError(
      `Model "${modelName}" has no API key: set api_key in its config.yaml entry (for example ` +
        "api_key: $ANTHROPIC_API_KEY) or set the ANTHROPIC_API_KEY environment variable.",
    );
  }
  const timeout = read.secondsAsMs("timeout", "request_timeout", "default_request_timeout");
  const defaultHeaders = read.stringMap("default_headers");
  const thinking = read.object("thinking");
  const fields: AnthropicFields = {
    model: read.string("model"),
    apiKey,
    anthropicApiUrl: read.string("base_url", "api_base", "anthropic_api_url"),
    temperature: read.number("temperature"),
    maxTokens: read.number("max_tokens"),
    topP: read.number("top_p"),
    topK: read.number("top_k"),
    stopSequences: read.stringList("stop_sequences") ?? read.stringList("stop"),
    maxRetries: read.number("max_retries"),
    streaming: read.boolean("streaming"),
    streamUsage: read.boolean("stream_usage") ?? true,
    clientOptions: {
      ...(timeout !== undefined ? { timeout } : {}),
      ...(defaultHeaders ? { defaultHeaders } : {}),
    },
  };
  if (thinking) fields.thinking = thinkingOf(modelName, thinking);
  const invocationKwargs = { ...read.object("model_kwargs"), ...read.object("extra_body") };
  Object.assign(invocationKwargs, read.rest());
  if (Object.keys(invocationKwargs).length > 0) fields.invocationKwargs = invocationKwargs;
  return new ChatAnthropic(dropUndefined(fields));
}

function thinkingOf(modelName: string, value: Record<string, unknown>): ThinkingConfig {
  if (value.type === "disabled") return { type: "disabled" };
  if (value.type === "enabled" && typeof value.budget_tokens === "number") {
    return { type: "enabled", budget_tokens: value.budget_tokens };
  }
  throw new ConfigError(
    `Model "${modelName}": thinking must be {type: disabled} or {type: enabled, budget_tokens: <number>}.`,
  );
}
