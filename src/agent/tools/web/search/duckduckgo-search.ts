import { callProvider, providerEndpoint } from "../provider-http.js";
import {
  DUCKDUCKGO_USER_AGENT,
  parseDuckDuckGoResults,
  safeSearchParameter,
} from "./duckduckgo-html.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

/** DuckDuckGo's script-free results page; `base_url` moves it (a mirror, or a test fake). */
export const DUCKDUCKGO_HTML_BASE_URL = "https://html.duckduckgo.com";
export const DUCKDUCKGO_DEFAULT_REGION = "wt-wt";

export interface DuckDuckGoSettings extends SearchProviderSettings {
  region: string;
  safesearch: string | undefined;
}

/** Keyless web search: DuckDuckGo's HTML endpoint (`POST /html/`, a form), parsed. */
export function createDuckDuckGoSearch(settings: DuckDuckGoSettings): SearchProvider {
  return {
    label: "DuckDuckGo",
    async search({ query, maxResults, signal }) {
      const html = await callProvider({
        provider: "DuckDuckGo",
        url: providerEndpoint(settings.baseUrl, "/html/"),
        method: "POST",
        headers: {
          accept: "text/html",
          "user-agent": DUCKDUCKGO_USER_AGENT,
          referer: providerEndpoint(settings.baseUrl, "/"),
        },
        form: {
          q: query,
          kl: settings.region,
          kp: safeSearchParameter(settings.safesearch, false),
        },
        timeoutMs: settings.timeoutMs,
        secrets: [],
        ...(signal ? { signal } : {}),
      });
      const results = await parseDuckDuckGoResults(html);
      return results.slice(0, maxResults);
    },
  };
}
