import { ConfigError } from "../../core/errors.js";
import type { ModelDialect } from "./dialects/dialect.js";
import { MINDIE_DIALECT } from "./dialects/mindie-dialect.js";
import {
  GEMINI_DIALECT,
  MINIMAX_DIALECT,
  OLLAMA_DIALECT,
  OPENAI_GATEWAY_DIALECT,
  REASONING_CONTENT_DIALECT,
  STEPFUN_DIALECT,
  VLLM_DIALECT,
} from "./dialects/reasoning-dialects.js";

/** How a provider is reached: an OpenAI-compatible endpoint, Anthropic, or a local script. */
export type ProviderKind = "openai" | "anthropic" | "scripted";

export interface ProviderSpec {
  /** Fawn's name for it, the value of `use:` in a Fawn config. */
  name: string;
  kind: ProviderKind;
  /** Endpoint used when the entry gives no `base_url`. */
  defaultBaseUrl?: string;
  /** Environment variable read when the entry gives no `api_key` (what the Python class reads). */
  apiKeyEnv?: string;
  /** Further variables tried after `apiKeyEnv`, in order. */
  moreApiKeyEnvs?: readonly string[];
  /** How this OpenAI-compatible provider differs from OpenAI (`dialects/`). */
  dialect?: ModelDialect;
  /** Local servers that ignore the key; the OpenAI client still insists on one. */
  keyless?: boolean;
  /** Ollama's native URL (`http://host:11434`) lacks the `/v1` of its OpenAI-compatible API. */
  appendV1?: boolean;
}

const PROVIDERS: readonly ProviderSpec[] = [
  { name: "openai", kind: "openai", apiKeyEnv: "OPENAI_API_KEY", dialect: OPENAI_GATEWAY_DIALECT },
  {
    name: "deepseek",
    kind: "openai",
    defaultBaseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    dialect: REASONING_CONTENT_DIALECT,
  },
  {
    name: "openrouter",
    kind: "openai",
    defaultBaseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    dialect: OPENAI_GATEWAY_DIALECT,
  },
  {
    name: "gemini",
    kind: "openai",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta/openai/",
    apiKeyEnv: "GEMINI_API_KEY",
    moreApiKeyEnvs: ["GOOGLE_API_KEY"],
    dialect: GEMINI_DIALECT,
  },
  {
    name: "mimo",
    kind: "openai",
    defaultBaseUrl: "https://api.xiaomimimo.com/v1",
    apiKeyEnv: "MIMO_API_KEY",
    dialect: REASONING_CONTENT_DIALECT,
  },
  {
    name: "stepfun",
    kind: "openai",
    defaultBaseUrl: "https://api.stepfun.com/v1",
    apiKeyEnv: "STEPFUN_API_KEY",
    dialect: STEPFUN_DIALECT,
  },
  {
    name: "minimax",
    kind: "openai",
    defaultBaseUrl: "https://api.minimax.io/v1",
    apiKeyEnv: "MINIMAX_API_KEY",
    dialect: MINIMAX_DIALECT,
  },
  {
    name: "vllm",
    kind: "openai",
    defaultBaseUrl: "http://localhost:8000/v1",
    apiKeyEnv: "VLLM_API_KEY",
    keyless: true,
    dialect: VLLM_DIALECT,
  },
  {
    name: "mindie",
    kind: "openai",
    defaultBaseUrl: "http://localhost:8989/v1",
    keyless: true,
    dialect: MINDIE_DIALECT,
  },
  {
    name: "ollama",
    kind: "openai",
    defaultBaseUrl: "http://localhost:11434/v1",
    keyless: true,
    appendV1: true,
    dialect: OLLAMA_DIALECT,
  },
  { name: "anthropic", kind: "anthropic", apiKeyEnv: "ANTHROPIC_API_KEY" },
  { name: "scripted", kind: "scripted" },
  { name: "demo", kind: "scripted" },
];

/**
 * The reference's `use:` class paths, so its config.yaml works unchanged. Its patched and
 * provider-specific classes all speak an OpenAI-compatible API; ours is one client for all.
 */
const REFERENCE_CLASS_PATHS: Readonly<Record<string, string>> = {
  "langchain_openai:ChatOpenAI": "openai",
  "deerflow.models.patched_openai:PatchedChatOpenAI": "openai",
  "langchain_deepseek:ChatDeepSeek": "deepseek",
  "deerflow.models.patched_deepseek:PatchedChatDeepSeek": "deepseek",
  "deerflow.models.vllm_provider:VllmChatModel": "vllm",
  "deerflow.models.patched_mimo:PatchedChatMiMo": "mimo",
  "deerflow.models.patched_stepfun:PatchedChatStepFun": "stepfun",
  "deerflow.models.patched_minimax:PatchedChatMiniMax": "minimax",
  "deerflow.models.mindie_provider:MindIEChatModel": "mindie",
  "langchain_ollama:ChatOllama": "ollama",
  "langchain_google_genai:ChatGoogleGenerativeAI": "gemini",
  "langchain_anthropic:ChatAnthropic": "anthropic",
};

/** Reference classes that log in through another program's account; no key-based equivalent. */
const UNSUPPORTED_CLASS_PATHS: Readonly<Record<string, string>> = {
  "deerflow.models.claude_provider:ClaudeChatModel":
    "it signs in through Claude Code's OAuth login; use `use: anthropic` (langchain_anthropic:ChatAnthropic) with an api_key",
  "deerflow.models.openai_codex_provider:CodexChatModel":
    "it signs in through the Codex CLI's login; use `use: openai` (langchain_openai:ChatOpenAI) with an api_key",
};

/** `langchain_openai.ChatOpenAI` (dotted) is accepted like `langchain_openai:ChatOpenAI`. */
function normalizeClassPath(use: string): string {
  if (use.includes(":")) return use;
  const dot = use.lastIndexOf(".");
  return dot > 0 ? `${use.slice(0, dot)}:${use.slice(dot + 1)}` : use;
}

/** The provider spec for a `use:` value, or null if Fawn does not know it. */
export function findProvider(use: string): ProviderSpec | null {
  const trimmed = use.trim();
  const name = REFERENCE_CLASS_PATHS[normalizeClassPath(trimmed)] ?? trimmed.toLowerCase();
  return PROVIDERS.find((provider) => provider.name === name) ?? null;
}

/** Like `findProvider`, but an unknown or unsupported `use:` is a ConfigError saying what works. */
export function resolveProvider(modelName: string, use: string): ProviderSpec {
  const provider = findProvider(use);
  if (provider) return provider;
  const unsupported = UNSUPPORTED_CLASS_PATHS[normalizeClassPath(use.trim())];
  if (unsupported) {
    throw new ConfigError(`Model "${modelName}": use "${use}" is not supported: ${unsupported}.`);
  }
  throw new ConfigError(
    `Model "${modelName}": unknown use "${use}". Use one of ${acceptedUseValues().join(", ")}.`,
  );
}

export function acceptedUseValues(): string[] {
  return [...PROVIDERS.map((provider) => provider.name), ...Object.keys(REFERENCE_CLASS_PATHS)];
}
