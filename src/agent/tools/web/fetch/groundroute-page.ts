import { callGroundRoute } from "../search/groundroute-search.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { KeyedFetchSettings } from "./exa-contents.js";
import type { FetchProvider } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

/** GroundRoute reads one page with `mode: "page"` on its search endpoint. */
export function createGroundRoutePage(settings: KeyedFetchSettings): FetchProvider {
  return {
    label: "GroundRoute",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const [page] = await callGroundRoute(
        settings,
        { query: target.url.href, mode: "page", max_results: 1 },
        signal,
      );
      if (!page) throw new WebToolError(`GroundRoute returned nothing for ${target.url.href}.`);
      return describeProviderPage({
        url: target.url,
        via: "GroundRoute",
        title: page.title,
        text: page.content || page.snippet,
        maxChars: settings.maxChars,
      });
    },
  };
}
