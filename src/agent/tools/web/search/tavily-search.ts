import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const TAVILY_BASE_URL = "https://api.tavily.com";
export const TAVILY_KEY_VARIABLE = "TAVILY_API_KEY";

const tavilyAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      title: z.string().catch(""),
      url: z.string().catch(""),
      content: z.string().catch(""),
    }),
  ),
});

/** Tavily's search API: `POST /search` with a bearer key. */
export function createTavilySearch(settings: SearchProviderSettings): SearchProvider {
  return {
    label: "Tavily",
    async search({ query, maxResults, signal }) {
      const apiKey = requireTavilyKey(settings.apiKey);
      const answer = await callProviderJson({
        provider: "Tavily",
        url: providerEndpoint(settings.baseUrl, "/search"),
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: { query, max_results: maxResults, search_depth: "basic" },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: (status) =>
          status === 401 || status === 403 ? "check the Tavily API key" : undefined,
        ...(signal ? { signal } : {}),
      });
      const parsed = tavilyAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Tavily answered in an unexpected format.");
      return parsed.data.results.map(({ title, url, content }) => ({
        title,
        url,
        snippet: content,
      }));
    },
  };
}

export function requireTavilyKey(apiKey: string | undefined): string {
  if (apiKey) return apiKey;
  throw new WebToolError(
    `Tavily needs an API key: set api_key in this tool's config.yaml entry (api_key: $${TAVILY_KEY_VARIABLE}) or the ${TAVILY_KEY_VARIABLE} environment variable.`,
  );
}
