import { attributeOf, type HtmlToken, tokenizeHtmlCooperatively } from "../html/html-tokens.js";
import { WebToolError } from "../web-tool-error.js";
import type { SearchResult } from "./search-provider.js";

/** DuckDuckGo answers browsers only; a plain client gets its bot check. */
export const DUCKDUCKGO_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/** DuckDuckGo's safe-search levels as its `kp` (HTML) and `p` (images) parameters take them. */
export function safeSearchParameter(level: string | undefined, images: boolean): string {
  // The image API knows only on (1) and off (-1); moderate filters there like on.
  if (images) return level === "off" ? "-1" : "1";
  if (level === "off") return "-2";
  return level === "on" || level === "strict" ? "1" : "-1";
}

/**
 * Results of DuckDuckGo's HTML page: each `a.result__a` is a result (its href is a redirect
 * whose `uddg` parameter is the target), followed by its `.result__snippet`. Ads link to
 * `/y.js` and are skipped. A page without results that carries the bot check is reported as
 * rate limiting rather than "no results".
 */
export async function parseDuckDuckGoResults(html: string): Promise<SearchResult[]> {
  const tokens = await tokenizeHtmlCooperatively(html);
  const results: SearchResult[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token?.kind !== "start") continue;
    const classes = ` ${attributeOf(token, "class") ?? ""} `;
    if (token.name === "a" && classes.includes(" result__a ")) {
      const { text, end } = collectText(tokens, index);
      const url = targetOf(attributeOf(token, "href") ?? "");
      if (url) results.push({ title: text, url, snippet: "" });
      index = end;
    } else if (classes.includes(" result__snippet ")) {
      const { text, end } = collectText(tokens, index);
      const last = results.at(-1);
      if (last && !last.snippet) last.snippet = text;
      index = end;
    }
  }
  if (results.length === 0 && /anomaly|captcha|challenge-form/i.test(html)) {
    throw new WebToolError(
      "DuckDuckGo refused the search with its bot check (too many requests from this address); try again later, or configure another web_search provider.",
    );
  }
  return results;
}

/** The raw text inside the element opened at `start`, and the index of its end tag. */
function collectText(tokens: readonly HtmlToken[], start: number): { text: string; end: number } {
  const open = tokens[start];
  const name = open?.kind === "start" ? open.name : "";
  const parts: string[] = [];
  let depth = 1;
  let index = start + 1;
  for (; index < tokens.length && depth > 0; index += 1) {
    const token = tokens[index];
    if (!token) break;
    if (token.kind === "text") parts.push(token.text);
    else if (token.kind === "start" && token.name === name && !token.selfClosing) depth += 1;
    else if (token.kind === "end" && token.name === name) depth -= 1;
    else parts.push(" ");
  }
  return { text: parts.join(""), end: index - 1 };
}

/** The result's real address: the `uddg` target of DuckDuckGo's redirect, else the href. */
function targetOf(href: string): string {
  let url: URL;
  try {
    url = new URL(href, "https://duckduckgo.com");
  } catch {
    return "";
  }
  if (url.hostname.endsWith("duckduckgo.com")) {
    if (url.pathname === "/y.js") return "";
    const target = url.searchParams.get("uddg");
    return target ?? "";
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
}
