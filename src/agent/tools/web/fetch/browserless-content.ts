import {
  type BrowserlessSettings,
  browserlessRequest,
  browserlessWaits,
  targetStatusNote,
} from "../browserless-api.js";
import { htmlToText } from "../html/html-to-text.js";
import { callProviderBinary } from "../provider-http.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { FetchProvider, FetchProviderSettings } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

/** Rendered HTML larger than this is cut; the reading text is far smaller anyway. */
const MAX_RENDERED_HTML_BYTES = 4 * 1024 * 1024;

/** Browserless's `POST /content`: the page after a real Chrome ran its scripts, as text. */
export function createBrowserlessContent(
  settings: BrowserlessSettings & FetchProviderSettings,
): FetchProvider {
  return {
    label: "Browserless",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const request = browserlessRequest(
        settings,
        "/content",
        { url: target.url.href, ...browserlessWaits(settings.options) },
        "text/html",
      );
      const answer = await callProviderBinary(
        { ...request, ...(signal ? { signal } : {}) },
        MAX_RENDERED_HTML_BYTES,
      );
      const html = answer.bytes.toString("utf8");
      if (!html.trim())
        throw new WebToolError(`Browserless returned nothing for ${target.url.href}.`);
      const page = await htmlToText(html, target.url.href);
      return describeProviderPage({
        url: target.url,
        via: "Browserless",
        title: page.title ?? undefined,
        text: page.text,
        maxChars: settings.maxChars,
        note: targetStatusNote(answer.headers),
      });
    },
  };
}
