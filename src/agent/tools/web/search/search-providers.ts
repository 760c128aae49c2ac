import { type Built, built, keyOf, nonEmpty, type WebToolContext } from "../provider-context.js";
import { requireProviderKey } from "../provider-key.js";
import type { SearchProviderName, WebToolSettings } from "../web-tool-settings.js";
import { BRAVE_BASE_URL, BRAVE_KEY_VARIABLE, createBraveSearch } from "./brave-search.js";
import {
  createDuckDuckGoSearch,
  DUCKDUCKGO_DEFAULT_REGION,
  DUCKDUCKGO_HTML_BASE_URL,
} from "./duckduckgo-search.js";
import { createExaSearch, EXA_BASE_URL, EXA_KEY_VARIABLE } from "./exa-search.js";
import {
  createFirecrawlSearch,
  FASTCRW_BASE_URL,
  FASTCRW_KEY_VARIABLE,
  FASTCRW_URL_VARIABLE,
  FIRECRAWL_BASE_URL,
  FIRECRAWL_KEY_VARIABLE,
  type FirecrawlFlavour,
} from "./firecrawl-search.js";
import {
  createGroundRouteSearch,
  GROUNDROUTE_BASE_URL,
  GROUNDROUTE_KEY_VARIABLE,
} from "./groundroute-search.js";
import {
  createInfoQuestSearch,
  INFOQUEST_KEY_VARIABLE,
  INFOQUEST_SEARCH_URL,
} from "./infoquest-search.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";
import { createSearxngSearch, SEARXNG_BASE_URL } from "./searxng-search.js";
import { createSerperSearch, SERPER_BASE_URL, SERPER_KEY_VARIABLE } from "./serper-search.js";
import { createTavilySearch, TAVILY_BASE_URL, TAVILY_KEY_VARIABLE } from "./tavily-search.js";

const DEFAULT_EXA_HIGHLIGHT_CHARS = 1_000;

/** Firecrawl needs a key; a self-hosted fastCRW may not, so its key is optional. */
export const FIRECRAWL: FirecrawlFlavour = {
  label: "Firecrawl",
  key: (apiKey) => requireProviderKey(apiKey, "Firecrawl", FIRECRAWL_KEY_VARIABLE),
};
export const FASTCRW: FirecrawlFlavour = { label: "fastCRW", key: (apiKey) => apiKey };

/** The fastCRW address: the entry's base_url, else CRW_API_URL, else its cloud. */
export function fastcrwBaseUrl(settings: WebToolSettings, context: WebToolContext): string {
  return settings.baseUrl ?? nonEmpty(context.env[FASTCRW_URL_VARIABLE]) ?? FASTCRW_BASE_URL;
}

/** The search backend one `web_search` entry selects, with its key. */
export function searchProviderOf(
  name: SearchProviderName,
  settings: WebToolSettings,
  context: WebToolContext,
): Built<SearchProvider> {
  const timeoutMs = settings.timeoutMs;
  const at = (baseUrl: string, apiKey: string | undefined): SearchProviderSettings => ({
    baseUrl: settings.baseUrl ?? baseUrl,
    apiKey,
    timeoutMs,
  });
  const keyed = (variable: string, label: string) => keyOf(settings, variable, context, label);
  switch (name) {
    case "tavily": {
      const apiKey = keyed(TAVILY_KEY_VARIABLE, "Tavily");
      return built(createTavilySearch(at(TAVILY_BASE_URL, apiKey)), apiKey);
    }
    case "brave": {
      const apiKey = keyed(BRAVE_KEY_VARIABLE, "Brave Search");
      return built(createBraveSearch(at(BRAVE_BASE_URL, apiKey)), apiKey);
    }
    case "searxng":
      return built(createSearxngSearch(at(SEARXNG_BASE_URL, settings.apiKey)), settings.apiKey);
    case "ddg":
      return built(
        createDuckDuckGoSearch({
          ...at(DUCKDUCKGO_HTML_BASE_URL, undefined),
          region: settings.options.region ?? DUCKDUCKGO_DEFAULT_REGION,
          safesearch: settings.options.safesearch,
        }),
        undefined,
      );
    case "serper": {
      const apiKey = keyed(SERPER_KEY_VARIABLE, "Serper");
      return built(createSerperSearch(at(SERPER_BASE_URL, apiKey)), apiKey);
    }
    case "exa": {
      const apiKey = keyed(EXA_KEY_VARIABLE, "Exa");
      const search = createExaSearch({
        ...at(EXA_BASE_URL, apiKey),
        searchType: settings.options.search_type ?? "auto",
        highlightChars: settings.options.contents_max_characters ?? DEFAULT_EXA_HIGHLIGHT_CHARS,
      });
      return built(search, apiKey);
    }
    case "firecrawl": {
      const apiKey = keyed(FIRECRAWL_KEY_VARIABLE, "Firecrawl");
      return built(createFirecrawlSearch(at(FIRECRAWL_BASE_URL, apiKey), FIRECRAWL), apiKey);
    }
    case "fastcrw": {
      const apiKey = keyOf(settings, FASTCRW_KEY_VARIABLE, context, "fastCRW", false);
      const base = { baseUrl: fastcrwBaseUrl(settings, context), apiKey, timeoutMs };
      return built(createFirecrawlSearch(base, FASTCRW), apiKey);
    }
    case "infoquest": {
      const apiKey = keyed(INFOQUEST_KEY_VARIABLE, "InfoQuest");
      const search = createInfoQuestSearch({
        ...at(INFOQUEST_SEARCH_URL, apiKey),
        timeRangeDays: settings.options.search_time_range,
      });
      return built(search, apiKey);
    }
    case "groundroute": {
      const apiKey = keyed(GROUNDROUTE_KEY_VARIABLE, "GroundRoute");
      return built(createGroundRouteSearch(at(GROUNDROUTE_BASE_URL, apiKey)), apiKey);
    }
  }
}
