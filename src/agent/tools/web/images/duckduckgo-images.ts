import { z } from "zod";
import { callProvider, callProviderJson, providerEndpoint } from "../provider-http.js";
import { DUCKDUCKGO_USER_AGENT, safeSearchParameter } from "../search/duckduckgo-html.js";
import type { DuckDuckGoSettings } from "../search/duckduckgo-search.js";
import { WebToolError } from "../web-tool-error.js";
import type { ImageSearchProvider } from "./image-search-provider.js";

export const DUCKDUCKGO_BASE_URL = "https://duckduckgo.com";

// The search page embeds a per-query token (vqd) that the image API requires.
const VQD = /vqd=["']?([\d-]+)["']?/;

const imagesAnswer = z.looseObject({
  results: z
    .array(
      z.looseObject({
        title: z.string().catch(""),
        image: z.string().catch(""),
        thumbnail: z.string().catch(""),
        url: z.string().catch(""),
      }),
    )
    .catch([]),
});

/**
 * Keyless image search: DuckDuckGo's search page gives the query token, then `GET /i.js`
 * answers the images as JSON.
 */
export function createDuckDuckGoImages(settings: DuckDuckGoSettings): ImageSearchProvider {
  const headers = {
    "user-agent": DUCKDUCKGO_USER_AGENT,
    referer: providerEndpoint(settings.baseUrl, "/"),
  };
  return {
    label: "DuckDuckGo",
    async search({ query, maxResults, signal }) {
      const pageUrl = new URL(providerEndpoint(settings.baseUrl, "/"));
      pageUrl.search = new URLSearchParams({ q: query, iax: "images", ia: "images" }).toString();
      const common = { provider: "DuckDuckGo", timeoutMs: settings.timeoutMs, secrets: [] };
      const page = await callProvider({
        ...common,
        url: pageUrl.href,
        method: "GET",
        headers: { ...headers, accept: "text/html" },
        ...(signal ? { signal } : {}),
      });
      const token = VQD.exec(page)?.[1];
      if (!token) {
        throw new WebToolError(
          "DuckDuckGo did not hand out an image search token (it may be rate limiting this address); try again later, or configure another image_search provider.",
        );
      }
      const apiUrl = new URL(providerEndpoint(settings.baseUrl, "/i.js"));
      apiUrl.search = new URLSearchParams({
        l: settings.region,
        o: "json",
        q: query,
        vqd: token,
        f: ",,,,,",
        p: safeSearchParameter(settings.safesearch, true),
      }).toString();
      const answer = await callProviderJson({
        ...common,
        url: apiUrl.href,
        method: "GET",
        headers,
        ...(signal ? { signal } : {}),
      });
      const parsed = imagesAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("DuckDuckGo answered in an unexpected format.");
      return parsed.data.results.slice(0, maxResults).map((result) => ({
        title: result.title,
        imageUrl: result.image,
        thumbnailUrl: result.thumbnail,
        sourceUrl: result.url,
      }));
    },
  };
}
