import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { requireTavilyKey } from "../search/tavily-search.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { FetchProvider, FetchProviderSettings } from "./fetch-provider.js";
import { truncateText } from "./page-content.js";

export interface TavilyExtractSettings extends FetchProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
}

const extractAnswer = z.looseObject({
  results: z
    .array(z.looseObject({ url: z.string().catch(""), raw_content: z.string().catch("") }))
    .catch([]),
  failed_results: z
    .array(z.looseObject({ url: z.string().catch(""), error: z.string().catch("") }))
    .catch([]),
});

/** Tavily's extract API (`POST /extract`) reads the page on Tavily's side. */
export function createTavilyExtract(settings: TavilyExtractSettings): FetchProvider {
  return {
    label: "Tavily extract",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const apiKey = requireTavilyKey(settings.apiKey);
      const answer = await callProviderJson({
        provider: "Tavily",
        url: providerEndpoint(settings.baseUrl, "/extract"),
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: { urls: [target.url.href] },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: (status) =>
          status === 401 || status === 403 ? "check the Tavily API key" : undefined,
        ...(signal ? { signal } : {}),
      });
      const parsed = extractAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Tavily answered in an unexpected format.");
      const failure = parsed.data.failed_results[0];
      if (failure) {
        throw new WebToolError(
          `Tavily could not read ${target.url.href}: ${failure.error || "no reason given"}.`,
        );
      }
      const page = parsed.data.results[0];
      if (!page) throw new WebToolError(`Tavily returned nothing for ${target.url.href}.`);
      const content = page.raw_content.trim() || "(The page has no readable text.)";
      return `Source: ${target.url.href} (via Tavily extract)\n\n${truncateText(content, settings.maxChars)}`;
    },
  };
}
