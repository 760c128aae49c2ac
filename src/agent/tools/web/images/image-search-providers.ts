import { type Built, built, keyOf, type WebToolContext } from "../provider-context.js";
import { BRAVE_BASE_URL, BRAVE_KEY_VARIABLE } from "../search/brave-search.js";
import { DUCKDUCKGO_DEFAULT_REGION } from "../search/duckduckgo-search.js";
import { INFOQUEST_KEY_VARIABLE, INFOQUEST_SEARCH_URL } from "../search/infoquest-search.js";
import { SERPER_BASE_URL, SERPER_KEY_VARIABLE } from "../search/serper-search.js";
import type { ImageSearchProviderName, WebToolSettings } from "../web-tool-settings.js";
import { createBraveImages } from "./brave-images.js";
import { createDuckDuckGoImages, DUCKDUCKGO_BASE_URL } from "./duckduckgo-images.js";
import type { ImageSearchProvider } from "./image-search-provider.js";
import { createInfoQuestImages } from "./infoquest-images.js";
import { createSerperImages } from "./serper-images.js";

/** The image search backend one `image_search` entry selects, with its key. */
export function imageSearchProviderOf(
  name: ImageSearchProviderName,
  settings: WebToolSettings,
  context: WebToolContext,
): Built<ImageSearchProvider> {
  const at = (baseUrl: string, apiKey: string | undefined) => ({
    baseUrl: settings.baseUrl ?? baseUrl,
    apiKey,
    timeoutMs: settings.timeoutMs,
  });
  const { options } = settings;
  switch (name) {
    case "ddg": {
      const images = createDuckDuckGoImages({
        ...at(DUCKDUCKGO_BASE_URL, undefined),
        region: options.region ?? DUCKDUCKGO_DEFAULT_REGION,
        safesearch: options.safesearch,
      });
      return built(images, undefined);
    }
    case "serper": {
      const apiKey = keyOf(settings, SERPER_KEY_VARIABLE, context, "Serper");
      return built(createSerperImages(at(SERPER_BASE_URL, apiKey)), apiKey);
    }
    case "brave": {
      const apiKey = keyOf(settings, BRAVE_KEY_VARIABLE, context, "Brave Search");
      const parameters: Record<string, string> = {
        ...(options.country ? { country: options.country } : {}),
        ...(options.search_lang ? { search_lang: options.search_lang } : {}),
        ...(options.safesearch ? { safesearch: braveSafeSearch(options.safesearch) } : {}),
        ...(options.spellcheck === undefined ? {} : { spellcheck: String(options.spellcheck) }),
      };
      return built(createBraveImages({ ...at(BRAVE_BASE_URL, apiKey), parameters }), apiKey);
    }
    case "infoquest": {
      const apiKey = keyOf(settings, INFOQUEST_KEY_VARIABLE, context, "InfoQuest");
      const images = createInfoQuestImages({
        ...at(INFOQUEST_SEARCH_URL, apiKey),
        timeRangeDays: options.image_search_time_range,
        imageSize: options.image_size,
      });
      return built(images, apiKey);
    }
  }
}

/** Brave's image API knows only `off` and `strict`. */
function braveSafeSearch(level: string): string {
  return level === "off" ? "off" : "strict";
}
