import { ChatOpenAI, type ChatOpenAIFields } from "@langchain/openai";
import type { Env } from "../../core/config/env-expansion.js";
import { ConfigError } from "../../core/errors.js";
import { DialectCompletions } from "./dialects/dialect-completions.js";
import type { ProviderSpec } from "./providers.js";
import { dropUndefined, SettingReader } from "./setting-readers.js";

/** What the OpenAI client is given for servers that ignore the key (vLLM's convention). */
const PLACEHOLDER_KEY = "EMPTY";

/** Builds ChatOpenAI for any OpenAI-compatible endpoint from snake_case provider settings. */
export function createOpenAIModel(
  modelName: string,
  provider: ProviderSpec,
  settings: Record<string, unknown>,
  env: Env,
): ChatOpenAI {
  const adjusted = provider.dialect?.adjustSettings?.({ ...settings }) ?? settings;
  const read = new SettingReader(modelName, { ...adjusted });
  const model = read.string("model");
  const baseUrl = endpointOf(
    read.string("base_url", "api_base", "openai_api_base") ?? provider.defaultBaseUrl,
    provider,
  );
  const apiKey = apiKeyOf(
    modelName,
    provider,
    read.string("api_key", "openai_api_key"),
    env,
    baseUrl,
  );
  const defaultHeaders = read.stringMap("default_headers");
  const reasoningEffort = read.string("reasoning_effort");
  const organization = read.string("organization");
  const fields: ChatOpenAIFields = {
    model,
    apiKey,
    temperature: read.number("temperature"),
    maxTokens: read.number("max_tokens"),
    maxCompletionTokens: read.number("max_completion_tokens"),
    topP: read.number("top_p"),
    frequencyPenalty: read.number("frequency_penalty"),
    presencePenalty: read.number("presence_penalty"),
    stop: read.stringList("stop"),
    timeout: read.secondsAsMs("timeout", "request_timeout"),
    maxRetries: read.number("max_retries"),
    streaming: read.boolean("streaming"),
    // Usage in streamed answers feeds token accounting; the reference defaults it on too.
    streamUsage: read.boolean("stream_usage") ?? true,
    useResponsesApi: read.boolean("use_responses_api"),
    configuration: {
      ...(baseUrl ? { baseURL: baseUrl } : {}),
      ...(defaultHeaders ? { defaultHeaders } : {}),
      ...(organization ? { organization } : {}),
    },
  };
  if (reasoningEffort) fields.reasoning = { effort: reasoningEffortOf(modelName, reasoningEffort) };
  // Python's extra_body and model_kwargs both end up as extra fields of the request body.
  const modelKwargs = {
    ...read.object("model_kwargs"),
    ...read.object("extra_body"),
    ...read.rest(),
  };
  if (Object.keys(modelKwargs).length > 0) fields.modelKwargs = modelKwargs;
  const cleaned = dropUndefined(fields);
  if (!provider.dialect) return new ChatOpenAI(cleaned);
  // The dialect lives in the Chat Completions half; the Responses API is plain OpenAI's.
  return new ChatOpenAI({
    ...cleaned,
    completions: new DialectCompletions(cleaned, provider.dialect),
  });
}

function endpointOf(baseUrl: string | undefined, provider: ProviderSpec): string | undefined {
  if (!baseUrl || !provider.appendV1) return baseUrl;
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

function apiKeyOf(
  modelName: string,
  provider: ProviderSpec,
  configured: string | undefined,
  env: Env,
  baseUrl: string | undefined,
): string {
  const variables = [provider.apiKeyEnv, ...(provider.moreApiKeyEnvs ?? [])];
  const fromEnv = variables
    .map((variable) => (variable ? env[variable] : undefined))
    .find((value) => value !== undefined && value !== "");
  const key = configured ?? fromEnv;
  if (key) return key;
  // Self-hosted endpoints (vLLM, Ollama, a local mock) usually need no key at all.
  if (provider.keyless || (baseUrl && baseUrl !== provider.defaultBaseUrl)) return PLACEHOLDER_KEY;
  const variable = provider.apiKeyEnv ?? "OPENAI_API_KEY";
  throw new ConfigError(
    `Model "${modelName}" has no API key: set api_key in its config.yaml entry (for example ` +
      `api_key: $${variable}) or set the ${variable} environment variable.`,
  );
}

const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;
type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

function reasoningEffortOf(modelName: string, value: string): ReasoningEffort {
  const found = REASONING_EFFORTS.find((effort) => effort === value);
  if (!found) {
    throw new ConfigError(
      `Model "${modelName}": reasoning_effort must be one of ${REASONING_EFFORTS.join(", ")}.`,
    );
  }
  return found;
}
