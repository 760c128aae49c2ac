import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

/** The reference's default address of a self-hosted SearXNG. */
export const SEARXNG_BASE_URL = "http://localhost:8088";

const searxngAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      title: z.string().catch(""),
      url: z.string().catch(""),
      content: z.string().catch(""),
    }),
  ),
});

/** A SearXNG instance's `GET /search?format=json` (the instance must allow the json format). */
export function createSearxngSearch(settings: SearchProviderSettings): SearchProvider {
  return {
    label: "SearXNG",
    async search({ query, maxResults, signal }) {
      const url = new URL(providerEndpoint(settings.baseUrl, "/search"));
      url.search = new URLSearchParams({ q: query, format: "json", pageno: "1" }).toString();
      const secrets = settings.apiKey ? [settings.apiKey] : [];
      const answer = await callProviderJson({
        provider: "SearXNG",
        url: url.href,
        method: "GET",
        // Instances behind an authenticating proxy take the key as a bearer token.
        ...(settings.apiKey ? { headers: { authorization: `Bearer ${settings.apiKey}` } } : {}),
        timeoutMs: settings.timeoutMs,
        secrets,
        hintForStatus: (status) =>
          status === 403
            ? "the instance refuses format=json; add json to search.formats in its settings.yml"
            : undefined,
        ...(signal ? { signal } : {}),
      });
      const parsed = searxngAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("SearXNG answered in an unexpected format.");
      return parsed.data.results
        .slice(0, maxResults)
        .map(({ title, url: link, content }) => ({ title, url: link, snippet: content }));
    },
  };
}
