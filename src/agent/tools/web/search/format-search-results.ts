import { plainTextOf } from "../html/html-to-text.js";
import type { SearchResult } from "./search-provider.js";

const MAX_TITLE_CHARS = 200;
const MAX_SNIPPET_CHARS = 500;
const MAX_URL_CHARS = 500;

/**
 * Search results as the model reads them: numbered, one block per result (title, URL,
 * snippet), markup stripped and each field bounded, so one noisy result cannot flood the
 * context. The URLs are exactly what web_fetch should be given next.
 */
export function formatSearchResults(query: string, results: readonly SearchResult[]): string {
  const usable = results
    .map((result) => ({
      title: clip(plainTextOf(result.title), MAX_TITLE_CHARS) || "(untitled)",
      url: clip(result.url.trim(), MAX_URL_CHARS),
      snippet: clip(plainTextOf(result.snippet), MAX_SNIPPET_CHARS),
    }))
    .filter((result) => result.url !== "");
  if (usable.length === 0) return `No results found for "${query}".`;
  const blocks = usable.map((result, index) =>
    [
      `${index + 1}. ${result.title}`,
      `   ${result.url}`,
      ...(result.snippet ? [`   ${result.snippet}`] : []),
    ].join("\n"),
  );
  return `Search results for "${query}":\n\n${blocks.join("\n\n")}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
