import { htmlToText } from "../html/html-to-text.js";
import { callProvider } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { INFOQUEST_KEY_VARIABLE } from "../search/infoquest-search.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { KeyedFetchSettings } from "./exa-contents.js";
import type { FetchProvider } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

export const INFOQUEST_READER_URL = "https://reader.infoquest.bytepluses.com";

export interface InfoQuestReaderSettings extends KeyedFetchSettings {
  /** Crawl limits sent to InfoQuest (seconds; absent: its defaults). */
  crawl: { fetch_time?: number; timeout?: number; navi_timeout?: number };
}

/** BytePlus InfoQuest's reader renders the page on its side and answers its HTML. */
export function createInfoQuestReader(settings: InfoQuestReaderSettings): FetchProvider {
  return {
    label: "InfoQuest",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const apiKey = requireProviderKey(settings.apiKey, "InfoQuest", INFOQUEST_KEY_VARIABLE);
      const answer = await callProvider({
        provider: "InfoQuest",
        url: settings.baseUrl,
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: { url: target.url.href, format: "HTML", ...settings.crawl },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: keyHint("InfoQuest"),
        ...(signal ? { signal } : {}),
      });
      const html = readerHtmlOf(answer);
      if (!html.trim())
        throw new WebToolError(`InfoQuest returned nothing for ${target.url.href}.`);
      const page = await htmlToText(html, target.url.href);
      return describeProviderPage({
        url: target.url,
        via: "InfoQuest",
        title: page.title ?? undefined,
        text: page.text,
        maxChars: settings.maxChars,
      });
    },
  };
}

/** The reader answers `{reader_result}` (or `{content}`) as JSON, or the page itself. */
function readerHtmlOf(answer: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return answer;
  }
  if (typeof parsed === "object" && parsed !== null) {
    const record: Record<string, unknown> = { ...parsed };
    for (const key of ["reader_result", "content"]) {
      const value = record[key];
      if (typeof value === "string") return value;
    }
  }
  throw new WebToolError("InfoQuest answered in an unexpected format.");
}
