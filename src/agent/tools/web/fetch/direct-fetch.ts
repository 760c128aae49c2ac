import type { FetchProvider, FetchProviderSettings } from "./fetch-provider.js";
import { httpGet } from "./http-get.js";
import { describePageContent } from "./page-content.js";

export interface DirectFetchSettings extends FetchProviderSettings {
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
}

/** Fetches the page from this process: guarded, capped, redirects re-checked (see httpGet). */
export function createDirectFetch(settings: DirectFetchSettings): FetchProvider {
  return {
    label: "direct HTTP",
    async read(url, signal) {
      const page = await httpGet(url, { ...settings, ...(signal ? { signal } : {}) });
      return describePageContent(page, settings);
    },
  };
}
