import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint } from "../provider-key.js";
import type { FirecrawlFlavour } from "../search/firecrawl-search.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { KeyedFetchSettings } from "./exa-contents.js";
import type { FetchProvider } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

const scrapeAnswer = z.looseObject({
  success: z.boolean().catch(true).optional(),
  error: z.string().optional().catch(undefined),
  data: z
    .looseObject({
      markdown: z.string().catch(""),
      metadata: z
        .looseObject({
          title: z.string().optional().catch(undefined),
          statusCode: z.number().optional().catch(undefined),
        })
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** Firecrawl's (v2) scrape, `POST /v2/scrape` for markdown; fastCRW speaks the same API. */
export function createFirecrawlScrape(
  settings: KeyedFetchSettings,
  flavour: FirecrawlFlavour,
): FetchProvider {
  return {
    label: flavour.label,
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const apiKey = flavour.key(settings.apiKey);
      const answer = await callProviderJson({
        provider: flavour.label,
        url: providerEndpoint(settings.baseUrl, "/v2/scrape"),
        method: "POST",
        ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
        body: { url: target.url.href, formats: ["markdown"] },
        timeoutMs: settings.timeoutMs,
        secrets: apiKey ? [apiKey] : [],
        hintForStatus: keyHint(flavour.label),
        ...(signal ? { signal } : {}),
      });
      const parsed = scrapeAnswer.safeParse(answer);
      if (!parsed.success) {
        throw new WebToolError(`${flavour.label} answered in an unexpected format.`);
      }
      const { data, success, error } = parsed.data;
      if (success === false || !data) {
        throw new WebToolError(
          `${flavour.label} could not read ${target.url.href}: ${error ?? "no reason given"}.`,
        );
      }
      const status = data.metadata?.statusCode;
      return describeProviderPage({
        url: target.url,
        via: flavour.label,
        title: data.metadata?.title,
        text: data.markdown,
        maxChars: settings.maxChars,
        note: status && status >= 400 ? `(The site answered HTTP ${status}.)` : undefined,
      });
    },
  };
}
