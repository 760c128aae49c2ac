import { BROWSERLESS_BASE_URL, BROWSERLESS_TOKEN_VARIABLE } from "../browserless-api.js";
import { type Built, built, keyOf, type WebToolContext } from "../provider-context.js";
import { EXA_BASE_URL, EXA_KEY_VARIABLE } from "../search/exa-search.js";
import {
  FASTCRW_KEY_VARIABLE,
  FIRECRAWL_BASE_URL,
  FIRECRAWL_KEY_VARIABLE,
} from "../search/firecrawl-search.js";
import { GROUNDROUTE_BASE_URL, GROUNDROUTE_KEY_VARIABLE } from "../search/groundroute-search.js";
import { INFOQUEST_KEY_VARIABLE } from "../search/infoquest-search.js";
import { FASTCRW, FIRECRAWL, fastcrwBaseUrl } from "../search/search-providers.js";
import { TAVILY_BASE_URL, TAVILY_KEY_VARIABLE } from "../search/tavily-search.js";
import type { FetchProviderName, WebToolSettings } from "../web-tool-settings.js";
import { createBrowserlessContent } from "./browserless-content.js";
import {
  CRAWL4AI_BASE_URL,
  CRAWL4AI_TOKEN_VARIABLE,
  createCrawl4AiMarkdown,
} from "./crawl4ai-markdown.js";
import { createDirectFetch } from "./direct-fetch.js";
import { createExaContents } from "./exa-contents.js";
import type { FetchProvider } from "./fetch-provider.js";
import { createFirecrawlScrape } from "./firecrawl-scrape.js";
import { createGroundRoutePage } from "./groundroute-page.js";
import { createInfoQuestReader, INFOQUEST_READER_URL } from "./infoquest-reader.js";
import { createJinaFetch, JINA_BASE_URL, JINA_KEY_VARIABLE } from "./jina-fetch.js";
import { createTavilyExtract } from "./tavily-extract.js";

/** The page reader one `web_fetch` entry selects, with its key. */
export function fetchProviderOf(
  name: FetchProviderName,
  settings: WebToolSettings,
  context: WebToolContext,
): Built<FetchProvider> {
  const common = {
    timeoutMs: settings.timeoutMs,
    maxChars: settings.maxChars,
    allowPrivateNetwork: settings.allowPrivateNetwork,
    ...context.fetchSeams,
  };
  const at = (baseUrl: string, apiKey: string | undefined) => ({
    ...common,
    baseUrl: settings.baseUrl ?? baseUrl,
    apiKey,
  });
  const keyed = (variable: string, label: string, required = true) =>
    keyOf(settings, variable, context, label, required);
  switch (name) {
    case "direct":
      return built(
        createDirectFetch({
          ...common,
          maxBytes: settings.maxBytes,
          maxRedirects: settings.maxRedirects,
          userAgent: settings.userAgent,
        }),
        undefined,
      );
    case "jina": {
      // Optional: without a key Jina still answers, at a lower rate limit.
      const apiKey = keyed(JINA_KEY_VARIABLE, "Jina", false);
      return built(createJinaFetch(at(JINA_BASE_URL, apiKey)), apiKey);
    }
    case "tavily": {
      const apiKey = keyed(TAVILY_KEY_VARIABLE, "Tavily");
      return built(createTavilyExtract(at(TAVILY_BASE_URL, apiKey)), apiKey);
    }
    case "exa": {
      const apiKey = keyed(EXA_KEY_VARIABLE, "Exa");
      return built(createExaContents(at(EXA_BASE_URL, apiKey)), apiKey);
    }
    case "firecrawl": {
      const apiKey = keyed(FIRECRAWL_KEY_VARIABLE, "Firecrawl");
      return built(createFirecrawlScrape(at(FIRECRAWL_BASE_URL, apiKey), FIRECRAWL), apiKey);
    }
    case "fastcrw": {
      const apiKey = keyed(FASTCRW_KEY_VARIABLE, "fastCRW", false);
      const where = { ...at("", apiKey), baseUrl: fastcrwBaseUrl(settings, context) };
      return built(createFirecrawlScrape(where, FASTCRW), apiKey);
    }
    case "infoquest": {
      const apiKey = keyed(INFOQUEST_KEY_VARIABLE, "InfoQuest");
      const { fetch_time, navigation_timeout } = settings.options;
      const crawl = {
        ...(fetch_time && fetch_time > 0 ? { fetch_time } : {}),
        ...(settings.crawlTimeoutSeconds ? { timeout: settings.crawlTimeoutSeconds } : {}),
        ...(navigation_timeout && navigation_timeout > 0
          ? { navi_timeout: navigation_timeout }
          : {}),
      };
      return built(createInfoQuestReader({ ...at(INFOQUEST_READER_URL, apiKey), crawl }), apiKey);
    }
    case "groundroute": {
      const apiKey = keyed(GROUNDROUTE_KEY_VARIABLE, "GroundRoute");
      return built(createGroundRoutePage(at(GROUNDROUTE_BASE_URL, apiKey)), apiKey);
    }
    case "crawl4ai": {
      const token = keyed(CRAWL4AI_TOKEN_VARIABLE, "Crawl4AI", false);
      const filter = settings.options.filter ?? "fit";
      return built(createCrawl4AiMarkdown({ ...at(CRAWL4AI_BASE_URL, token), filter }), token);
    }
    case "browserless": {
      const token = keyed(BROWSERLESS_TOKEN_VARIABLE, "Browserless", false);
      const fetcher = createBrowserlessContent({
        ...common,
        baseUrl: settings.baseUrl ?? BROWSERLESS_BASE_URL,
        token,
        options: settings.options,
      });
      return built(fetcher, token);
    }
  }
}
