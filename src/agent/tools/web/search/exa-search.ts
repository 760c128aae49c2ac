import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const EXA_BASE_URL = "https://api.exa.ai";
export const EXA_KEY_VARIABLE = "EXA_API_KEY";

export interface ExaSearchSettings extends SearchProviderSettings {
  searchType: string;
  /** Characters of highlighted text per result. */
  highlightChars: number;
}

const exaAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      title: z.string().nullable().catch(""),
      url: z.string().catch(""),
      highlights: z.array(z.string()).catch([]).optional(),
    }),
  ),
});

/** Exa's search API: `POST /search` with the key in `x-api-key`, highlights as snippets. */
export function createExaSearch(settings: ExaSearchSettings): SearchProvider {
  return {
    label: "Exa",
    async search({ query, maxResults, signal }) {
      const apiKey = requireProviderKey(settings.apiKey, "Exa", EXA_KEY_VARIABLE);
      const answer = await callProviderJson({
        provider: "Exa",
        url: providerEndpoint(settings.baseUrl, "/search"),
        method: "POST",
        headers: { "x-api-key": apiKey },
        body: {
          query,
          type: settings.searchType,
          numResults: maxResults,
          contents: { highlights: { maxCharacters: settings.highlightChars } },
        },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: keyHint("Exa"),
        ...(signal ? { signal } : {}),
      });
      const parsed = exaAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Exa answered in an unexpected format.");
      return parsed.data.results.slice(0, maxResults).map((result) => ({
        title: result.title ?? "",
        url: result.url,
        snippet: (result.highlights ?? []).join(" … "),
      }));
    },
  };
}
