import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { BRAVE_KEY_VARIABLE } from "../search/brave-search.js";
import type { SearchProviderSettings } from "../search/search-provider.js";
import { WebToolError } from "../web-tool-error.js";
import type { ImageSearchProvider } from "./image-search-provider.js";

/** Brave's image API answers at most 200 images per request. */
const BRAVE_IMAGES_MAX_COUNT = 200;

export interface BraveImagesSettings extends SearchProviderSettings {
  /** Extra query parameters (country, search_lang, safesearch, spellcheck). */
  parameters: Record<string, string>;
}

const imagesAnswer = z.looseObject({
  results: z
    .array(
      z.looseObject({
        title: z.string().catch(""),
        url: z.string().catch(""),
        properties: z.looseObject({ url: z.string().catch("") }).catch({ url: "" }),
        thumbnail: z.looseObject({ src: z.string().catch("") }).catch({ src: "" }),
      }),
    )
    .catch([]),
});

/** Brave's image search API: `GET /images/search` with the key in `X-Subscription-Token`. */
export function createBraveImages(settings: BraveImagesSettings): ImageSearchProvider {
  return {
    label: "Brave Image Search",
    async search({ query, maxResults, signal }) {
      const apiKey = requireProviderKey(settings.apiKey, "Brave Search", BRAVE_KEY_VARIABLE);
      const url = new URL(providerEndpoint(settings.baseUrl, "/images/search"));
      url.search = new URLSearchParams({
        q: query,
        count: String(Math.min(maxResults, BRAVE_IMAGES_MAX_COUNT)),
        ...settings.parameters,
      }).toString();
      const answer = await callProviderJson({
        provider: "Brave Image Search",
        url: url.href,
        method: "GET",
        headers: { "x-subscription-token": apiKey },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: keyHint("Brave Search"),
        ...(signal ? { signal } : {}),
      });
      const parsed = imagesAnswer.safeParse(answer);
      if (!parsed.success) {
        throw new WebToolError("Brave Image Search answered in an unexpected format.");
      }
      return parsed.data.results.slice(0, maxResults).map((result) => ({
        title: result.title,
        imageUrl: result.properties.url,
        thumbnailUrl: result.thumbnail.src,
        sourceUrl: result.url,
      }));
    },
  };
}
