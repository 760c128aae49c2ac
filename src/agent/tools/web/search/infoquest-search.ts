import { z } from "zod";
import { callProviderJson } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchProvider, SearchProviderSettings, SearchResult } from "./search-provider.js";

export const INFOQUEST_SEARCH_URL = "https://search.infoquest.bytepluses.com";
export const INFOQUEST_KEY_VARIABLE = "INFOQUEST_API_KEY";

export interface InfoQuestSearchSettings extends SearchProviderSettings {
  /** Only results of the last N days; undefined or -1: no filter. */
  timeRangeDays: number | undefined;
}

const text = z.string().catch("");
const infoquestPage = z.looseObject({
  content: z.looseObject({
    results: z.looseObject({
      organic: z.array(z.looseObject({ title: text, url: text, desc: text })).catch([]),
      top_stories: z
        .looseObject({
          items: z.array(z.looseObject({ title: text, url: text, source: text })).catch([]),
        })
        .optional()
        .catch(undefined),
      images_results: z.array(z.looseObject({ title: text, original: text })).catch([]),
    }),
  }),
});

const infoquestAnswer = z.looseObject({
  search_result: z.looseObject({ results: z.array(infoquestPage) }),
});

export type InfoQuestPage = z.infer<typeof infoquestPage>;

/** One InfoQuest search call; `body` adds `search_type: "Images"` etc. for image search. */
export async function callInfoQuestSearch(
  settings: SearchProviderSettings,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<InfoQuestPage[]> {
  const apiKey = requireProviderKey(settings.apiKey, "InfoQuest", INFOQUEST_KEY_VARIABLE);
  const answer = await callProviderJson({
    provider: "InfoQuest",
    url: settings.baseUrl,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body: { format: "JSON", ...body },
    timeoutMs: settings.timeoutMs,
    secrets: [apiKey],
    hintForStatus: keyHint("InfoQuest"),
    ...(signal ? { signal } : {}),
  });
  const parsed = infoquestAnswer.safeParse(answer);
  if (!parsed.success) throw new WebToolError("InfoQuest answered in an unexpected format.");
  return parsed.data.search_result.results;
}

/** A time filter InfoQuest accepts (1–365 days), or nothing. */
export function timeRangeOf(days: number | undefined): { time_range?: number } {
  return days !== undefined && days > 0 ? { time_range: days } : {};
}

/** BytePlus InfoQuest web search: organic pages, then top stories, each URL once. */
export function createInfoQuestSearch(settings: InfoQuestSearchSettings): SearchProvider {
  return {
    label: "InfoQuest",
    async search({ query, maxResults, signal }) {
      const pages = await callInfoQuestSearch(
        settings,
        { query, ...timeRangeOf(settings.timeRangeDays) },
        signal,
      );
      const seen = new Set<string>();
      const results: SearchResult[] = [];
      const add = (result: SearchResult) => {
        if (!result.url || seen.has(result.url)) return;
        seen.add(result.url);
        results.push(result);
      };
      for (const page of pages) {
        const { organic, top_stories } = page.content.results;
        for (const item of organic) add({ title: item.title, url: item.url, snippet: item.desc });
        for (const story of top_stories?.items ?? []) {
          add({ title: story.title, url: story.url, snippet: story.source });
        }
      }
      return results.slice(0, maxResults);
    },
  };
}
