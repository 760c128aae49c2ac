import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint } from "../provider-key.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const FIRECRAWL_BASE_URL = "https://api.firecrawl.dev";
export const FIRECRAWL_KEY_VARIABLE = "FIRECRAWL_API_KEY";
/** fastCRW speaks Firecrawl's API; its cloud lives here, self-hosted ones anywhere. */
export const FASTCRW_BASE_URL = "https://fastcrw.com/api";
export const FASTCRW_KEY_VARIABLE = "CRW_API_KEY";
export const FASTCRW_URL_VARIABLE = "CRW_API_URL";

/** Firecrawl and fastCRW differ only in name, address and whether a key is required. */
export interface FirecrawlFlavour {
  label: "Firecrawl" | "fastCRW";
  /** The key, or a WebToolError when this flavour needs one and has none. */
  key(apiKey: string | undefined): string | undefined;
}

const searchAnswer = z.looseObject({
  data: z.looseObject({
    web: z
      .array(
        z.looseObject({
          title: z.string().catch(""),
          url: z.string().catch(""),
          description: z.string().catch(""),
        }),
      )
      .catch([]),
  }),
});

/** Firecrawl's (v2) search: `POST /v2/search` with a bearer key. */
export function createFirecrawlSearch(
  settings: SearchProviderSettings,
  flavour: FirecrawlFlavour,
): SearchProvider {
  return {
    label: flavour.label,
    async search({ query, maxResults, signal }) {
      const apiKey = flavour.key(settings.apiKey);
      const answer = await callProviderJson({
        provider: flavour.label,
        url: providerEndpoint(settings.baseUrl, "/v2/search"),
        method: "POST",
        ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
        body: { query, limit: maxResults },
        timeoutMs: settings.timeoutMs,
        secrets: apiKey ? [apiKey] : [],
        hintForStatus: keyHint(flavour.label),
        ...(signal ? { signal } : {}),
      });
      const parsed = searchAnswer.safeParse(answer);
      if (!parsed.success) {
        throw new WebToolError(`${flavour.label} answered in an unexpected format.`);
      }
      return parsed.data.data.web
        .slice(0, maxResults)
        .map(({ title, url, description }) => ({ title, url, snippet: description }));
    },
  };
}
