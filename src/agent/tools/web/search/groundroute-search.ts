import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings } from "./search-provider.js";

export const GROUNDROUTE_BASE_URL = "https://api.groundroute.ai";
export const GROUNDROUTE_KEY_VARIABLE = "GROUNDROUTE_API_KEY";
const GROUNDROUTE_MAX_RESULTS = 50;

const groundrouteAnswer = z.looseObject({
  results: z
    .array(
      z.looseObject({
        title: z.string().catch(""),
        url: z.string().catch(""),
        snippet: z.string().catch(""),
        content: z.string().catch("").optional(),
        source_engine: z.string().catch("").optional(),
      }),
    )
    .nullable()
    .catch(null),
});

export type GroundRouteResult = NonNullable<z.infer<typeof groundrouteAnswer>["results"]>[number];

/** GroundRoute's `POST /v1/search` (bearer key); `mode: "page"` reads one URL instead. */
export async function callGroundRoute(
  settings: SearchProviderSettings,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<GroundRouteResult[]> {
  const apiKey = requireProviderKey(settings.apiKey, "GroundRoute", GROUNDROUTE_KEY_VARIABLE);
  const answer = await callProviderJson({
    provider: "GroundRoute",
    url: providerEndpoint(settings.baseUrl, "/v1/search"),
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body,
    timeoutMs: settings.timeoutMs,
    secrets: [apiKey],
    hintForStatus: keyHint("GroundRoute"),
    ...(signal ? { signal } : {}),
  });
  const parsed = groundrouteAnswer.safeParse(answer);
  if (!parsed.success) throw new WebToolError("GroundRoute answered in an unexpected format.");
  return parsed.data.results ?? [];
}

/** GroundRoute routes each query to one of several engines; the snippet names which. */
export function createGroundRouteSearch(settings: SearchProviderSettings): SearchProvider {
  return {
    label: "GroundRoute",
    async search({ query, maxResults, signal }) {
      const count = Math.min(maxResults, GROUNDROUTE_MAX_RESULTS);
      const results = await callGroundRoute(settings, { query, max_results: count }, signal);
      return results.slice(0, maxResults).map(({ title, url, snippet, source_engine }) => ({
        title,
        url,
        snippet: source_engine ? `${snippet} (via ${source_engine})` : snippet,
      }));
    },
  };
}
