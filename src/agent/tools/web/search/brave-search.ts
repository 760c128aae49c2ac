import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const BRAVE_BASE_URL = "https://api.search.brave.com/res/v1";
export const BRAVE_KEY_VARIABLE = "BRAVE_SEARCH_API_KEY";
/** The Brave web search API returns at most 20 results per request. */
const BRAVE_MAX_COUNT = 20;

const braveAnswer = z.looseObject({
  web: z
    .looseObject({
      results: z.array(
        z.looseObject({
          title: z.string().catch(""),
          url: z.string().catch(""),
          description: z.string().catch(""),
        }),
      ),
    })
    .optional(),
});

/** Brave's web search API: `GET /web/search` with the key in `X-Subscription-Token`. */
export function createBraveSearch(settings: SearchProviderSettings): SearchProvider {
  return {
    label: "Brave Search",
    async search({ query, maxResults, signal }) {
      const apiKey = settings.apiKey;
      if (!apiKey) {
        throw new WebToolError(
          `Brave Search needs an API key: set api_key in this tool's config.yaml entry (api_key: $${BRAVE_KEY_VARIABLE}) or the ${BRAVE_KEY_VARIABLE} environment variable.`,
        );
      }
      const url = new URL(providerEndpoint(settings.baseUrl, "/web/search"));
      const count = String(Math.min(maxResults, BRAVE_MAX_COUNT));
      url.search = new URLSearchParams({ q: query, count }).toString();
      const answer = await callProviderJson({
        provider: "Brave Search",
        url: url.href,
        method: "GET",
        headers: { "x-subscription-token": apiKey },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: (status) =>
          status === 401 || status === 403 ? "check the Brave Search API key" : undefined,
        ...(signal ? { signal } : {}),
      });
      const parsed = braveAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Brave Search answered in an unexpected format.");
      return (parsed.data.web?.results ?? [])
        .slice(0, maxResults)
        .map(({ title, url: link, description }) => ({ title, url: link, snippet: description }));
    },
  };
}
