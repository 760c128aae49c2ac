import { callProvider, providerEndpoint } from "../provider-http.js";
import { checkFetchTarget } from "../url-guard.js";
import type { FetchProvider, FetchProviderSettings } from "./fetch-provider.js";
import { truncateText } from "./page-content.js";

export const JINA_BASE_URL = "https://r.jina.ai";
export const JINA_KEY_VARIABLE = "JINA_API_KEY";

export interface JinaFetchSettings extends FetchProviderSettings {
  baseUrl: string;
  /** Optional: Jina serves keyless callers at a lower rate limit. */
  apiKey: string | undefined;
}

/**
 * Jina's reader renders the page on its side and answers markdown. The target URL is still
 * checked like a direct fetch, because `base_url` may point at a self-hosted reader that sits
 * inside the deployment's network.
 */
export function createJinaFetch(settings: JinaFetchSettings): FetchProvider {
  return {
    label: "Jina reader",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const apiKey = settings.apiKey;
      const text = await callProvider({
        provider: "Jina reader",
        url: providerEndpoint(settings.baseUrl, "/"),
        method: "POST",
        headers: {
          accept: "text/plain",
          "x-return-format": "markdown",
          "x-timeout": String(Math.ceil(settings.timeoutMs / 1000)),
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: { url: target.url.href },
        timeoutMs: settings.timeoutMs,
        secrets: apiKey ? [apiKey] : [],
        hintForStatus: (status) =>
          status === 401 || status === 403 ? "check the Jina API key" : undefined,
        ...(signal ? { signal } : {}),
      });
      const content = text.trim() || "(The page has no readable text.)";
      return `Source: ${target.url.href} (via Jina reader)\n\n${truncateText(content, settings.maxChars)}`;
    },
  };
}
