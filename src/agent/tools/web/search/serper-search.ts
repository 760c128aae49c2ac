import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const SERPER_BASE_URL = "https://google.serper.dev";
export const SERPER_KEY_VARIABLE = "SERPER_API_KEY";
/** Serper answers at most 10 results per page. */
export const SERPER_MAX_RESULTS = 10;

const serperAnswer = z.looseObject({
  organic: z
    .array(
      z.looseObject({
        title: z.string().catch(""),
        link: z.string().catch(""),
        snippet: z.string().catch(""),
      }),
    )
    .catch([]),
});

/** Serper's Google search API (`POST /search`, key in `X-API-KEY`). */
export function createSerperSearch(settings: SearchProviderSettings): SearchProvider {
  return {
    label: "Serper",
    async search({ query, maxResults, signal }) {
      const answer = await callSerper(settings, "/search", query, maxResults, signal);
      const parsed = serperAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Serper answered in an unexpected format.");
      return parsed.data.organic
        .slice(0, Math.min(maxResults, SERPER_MAX_RESULTS))
        .map(({ title, link, snippet }) => ({ title, url: link, snippet }));
    },
  };
}

/** One Serper call (`/search` or `/images`); shared with image search. */
export async function callSerper(
  settings: SearchProviderSettings,
  path: "/search" | "/images",
  query: string,
  maxResults: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const apiKey = requireProviderKey(settings.apiKey, "Serper", SERPER_KEY_VARIABLE);
  return callProviderJson({
    provider: "Serper",
    url: providerEndpoint(settings.baseUrl, path),
    method: "POST",
    headers: { "x-api-key": apiKey },
    body: { q: query, num: Math.min(maxResults, SERPER_MAX_RESULTS) },
    timeoutMs: settings.timeoutMs,
    secrets: [apiKey],
    hintForStatus: keyHint("Serper"),
    ...(signal ? { signal } : {}),
  });
}
