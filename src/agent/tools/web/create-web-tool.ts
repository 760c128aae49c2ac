import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Env } from "../../../core/config/env-expansion.js";
import { ConfigError } from "../../../core/errors.js";
import type { Logger } from "../../../core/logger.js";
import { createDirectFetch } from "./fetch/direct-fetch.js";
import type { FetchProvider } from "./fetch/fetch-provider.js";
import { createJinaFetch, JINA_BASE_URL, JINA_KEY_VARIABLE } from "./fetch/jina-fetch.js";
import { createTavilyExtract } from "./fetch/tavily-extract.js";
import { BRAVE_BASE_URL, BRAVE_KEY_VARIABLE, createBraveSearch } from "./search/brave-search.js";
import type { SearchProvider } from "./search/search-provider.js";
import { createSearxngSearch, SEARXNG_BASE_URL } from "./search/searxng-search.js";
import {
  createTavilySearch,
  TAVILY_BASE_URL,
  TAVILY_KEY_VARIABLE,
} from "./search/tavily-search.js";
import type { FetchTargetPolicy } from "./url-guard.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWebSearchTool } from "./web-search-tool.js";
import {
  FETCH_PROVIDERS,
  type FetchProviderName,
  parseWebToolSettings,
  SEARCH_PROVIDERS,
  type SearchProviderName,
  type WebToolSettings,
} from "./web-tool-settings.js";

export type FetchTargetSeams = Pick<FetchTargetPolicy, "resolve" | "isBlockedAddress">;

/** What a `use:` value selects: the tool, and the provider when the `use` fixes one. */
export type WebToolBinding =
  | { kind: "web_search"; provider?: SearchProviderName }
  | { kind: "web_fetch"; provider?: FetchProviderName };

export interface WebToolContext {
  /** How the entry is named in errors and warnings (`tools[1] "web_search"`). */
  where: string;
  /** Where provider keys are looked up when the entry has no `api_key`. */
  env: Env;
  logger: Logger;
  /** Test seams of web_fetch's private-address check (DNS, which addresses are private). */
  fetchSeams?: FetchTargetSeams;
}

/** Builds the web_search or web_fetch tool one `tools:` entry describes. */
export function createWebTool(
  entry: Record<string, unknown> & { name: string },
  binding: WebToolBinding,
  context: WebToolContext,
): StructuredToolInterface {
  const settings = parseWebToolSettings(entry, context.where);
  if (settings.ignoredKeys.length > 0) {
    context.logger.warn(
      { tool: entry.name, keys: settings.ignoredKeys },
      `config: ${context.where} has options Fawn does not use; they are ignored`,
    );
  }
  if (binding.kind === "web_search") {
    const name = chooseProvider(
      SEARCH_PROVIDERS,
      binding,
      settings.provider,
      undefined,
      context.where,
    );
    const { search, secrets } = searchProviderOf(name, settings, context);
    return createWebSearchTool({
      name: entry.name,
      provider: search,
      maxResults: settings.maxResults,
      secrets,
      logger: context.logger,
    });
  }
  // Fetching needs no service of its own, so the short form defaults to direct HTTP.
  const name = chooseProvider(FETCH_PROVIDERS, binding, settings.provider, "direct", context.where);
  const { fetcher, secrets } = fetchProviderOf(name, settings, context);
  return createWebFetchTool({
    name: entry.name,
    provider: fetcher,
    secrets,
    logger: context.logger,
  });
}

/** The provider a `use` fixes, else the entry's `provider` (or `fallback`), checked against `allowed`. */
function chooseProvider<P extends string>(
  allowed: readonly P[],
  binding: { kind: string; provider?: P },
  requested: string | undefined,
  fallback: P | undefined,
  where: string,
): P {
  if (binding.provider) {
    if (requested !== undefined && requested !== binding.provider) {
      throw new ConfigError(
        `Invalid tool entry ${where}: its use selects the ${binding.provider} provider, but provider is "${requested}". Remove provider, or use fawn:${binding.kind} with it.`,
      );
    }
    return binding.provider;
  }
  const chosen = requested ?? fallback;
  const match = allowed.find((name) => name === chosen);
  if (!match) {
    throw new ConfigError(
      `Invalid tool entry ${where}: set provider to one of ${allowed.join(", ")}${chosen ? ` (got "${chosen}")` : ""}.`,
    );
  }
  return match;
}

function searchProviderOf(
  provider: SearchProviderName,
  settings: WebToolSettings,
  context: WebToolContext,
): { search: SearchProvider; secrets: string[] } {
  const timeoutMs = settings.timeoutMs;
  switch (provider) {
    case "tavily": {
      const apiKey = keyOf(settings, TAVILY_KEY_VARIABLE, context, "Tavily");
      return {
        search: createTavilySearch({
          baseUrl: settings.baseUrl ?? TAVILY_BASE_URL,
          apiKey,
          timeoutMs,
        }),
        secrets: apiKey ? [apiKey] : [],
      };
    }
    case "brave": {
      const apiKey = keyOf(settings, BRAVE_KEY_VARIABLE, context, "Brave Search");
      return {
        search: createBraveSearch({
          baseUrl: settings.baseUrl ?? BRAVE_BASE_URL,
          apiKey,
          timeoutMs,
        }),
        secrets: apiKey ? [apiKey] : [],
      };
    }
    case "searxng":
      return {
        search: createSearxngSearch({
          baseUrl: settings.baseUrl ?? SEARXNG_BASE_URL,
          apiKey: settings.apiKey,
          timeoutMs,
        }),
        secrets: settings.apiKey ? [settings.apiKey] : [],
      };
  }
}

function fetchProviderOf(
  provider: FetchProviderName,
  settings: WebToolSettings,
  context: WebToolContext,
): { fetcher: FetchProvider; secrets: string[] } {
  const common = {
    timeoutMs: settings.timeoutMs,
    maxChars: settings.maxChars,
    allowPrivateNetwork: settings.allowPrivateNetwork,
    ...context.fetchSeams,
  };
  switch (provider) {
    case "direct":
      return {
        fetcher: createDirectFetch({
          ...common,
          maxBytes: settings.maxBytes,
          maxRedirects: settings.maxRedirects,
          userAgent: settings.userAgent,
        }),
        secrets: [],
      };
    case "jina": {
      // Optional: without a key Jina still answers, at a lower rate limit.
      const apiKey = settings.apiKey ?? nonEmpty(context.env[JINA_KEY_VARIABLE]);
      return {
        fetcher: createJinaFetch({ ...common, baseUrl: settings.baseUrl ?? JINA_BASE_URL, apiKey }),
        secrets: apiKey ? [apiKey] : [],
      };
    }
    case "tavily": {
      const apiKey = keyOf(settings, TAVILY_KEY_VARIABLE, context, "Tavily");
      return {
        fetcher: createTavilyExtract({
          ...common,
          baseUrl: settings.baseUrl ?? TAVILY_BASE_URL,
          apiKey,
        }),
        secrets: apiKey ? [apiKey] : [],
      };
    }
  }
}

/**
 * The entry's `api_key`, else the provider's usual environment variable. A missing key is a
 * warning, not a startup failure: the tool answers each call with how to set one.
 */
function keyOf(
  settings: WebToolSettings,
  variable: string,
  context: WebToolContext,
  provider: string,
): string | undefined {
  const apiKey = settings.apiKey ?? nonEmpty(context.env[variable]);
  if (!apiKey) {
    context.logger.warn(
      { provider },
      `config: ${context.where} (${provider}) has no API key; set api_key: $${variable} in the entry or the ${variable} environment variable`,
    );
  }
  return apiKey;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}
