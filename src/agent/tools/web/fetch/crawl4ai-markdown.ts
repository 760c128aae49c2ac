import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { KeyedFetchSettings } from "./exa-contents.js";
import type { FetchProvider } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

/** A self-hosted Crawl4AI server's usual address. */
export const CRAWL4AI_BASE_URL = "http://localhost:11235";
export const CRAWL4AI_TOKEN_VARIABLE = "CRAWL4AI_API_TOKEN";

export interface Crawl4AiSettings extends KeyedFetchSettings {
  /** Crawl4AI's markdown filter: fit (cleaned), raw, bm25 or llm. */
  filter: string;
}

const markdownAnswer = z.looseObject({
  success: z.boolean().catch(false),
  markdown: z.string().nullable().catch(""),
});

/** Crawl4AI's `POST /md`: the page rendered by its headless Chromium, as markdown. */
export function createCrawl4AiMarkdown(settings: Crawl4AiSettings): FetchProvider {
  return {
    label: "Crawl4AI",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const token = settings.apiKey;
      const answer = await callProviderJson({
        provider: "Crawl4AI",
        url: providerEndpoint(settings.baseUrl, "/md"),
        method: "POST",
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        body: { url: target.url.href, f: settings.filter },
        timeoutMs: settings.timeoutMs,
        secrets: token ? [token] : [],
        hintForStatus: (status) =>
          status === 401 || status === 403
            ? "Crawl4AI 0.9+ requires a token: set token in the entry to the server's CRAWL4AI_API_TOKEN"
            : undefined,
        ...(signal ? { signal } : {}),
      });
      const parsed = markdownAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Crawl4AI answered in an unexpected format.");
      if (!parsed.data.success) {
        throw new WebToolError(`Crawl4AI could not read ${target.url.href}.`);
      }
      return describeProviderPage({
        url: target.url,
        via: "Crawl4AI",
        text: parsed.data.markdown ?? "",
        maxChars: settings.maxChars,
      });
    },
  };
}
