import { INLINE_ELEMENTS } from "./html-elements.js";
import { decodeHtmlEntities } from "./html-entities.js";
import {
  attributeOf,
  type HtmlToken,
  tokenizeHtml,
  tokenizeHtmlCooperatively,
} from "./html-tokens.js";
import { MarkdownWriter } from "./markdown-writer.js";

export interface PageText {
  /** `<title>`, else `og:title`; null when the page names none. */
  title: string | null;
  /** Markdown-ish reading text: headings, paragraphs, lists, links, code blocks, tables. */
  text: string;
}

/** The part of a page worth reading, when it marks one: `<main>`, else a lone `<article>`. */
const CONTENT_ROOTS = ["main", "article"] as const;

/**
 * Turns an HTML page into text a model reads well. Uses the page's `<main>` (or its only
 * `<article>`) when that holds most of the text, so navigation and boilerplate stay out.
 */
export async function htmlToText(html: string, baseUrl?: string): Promise<PageText> {
  const tokens = await tokenizeHtmlCooperatively(html);
  const title = pageTitle(tokens);
  const whole = await new MarkdownWriter(baseUrl).render(tokens);
  const root = contentRoot(tokens);
  if (root) {
    const focused = await new MarkdownWriter(baseUrl).render(root);
    // A `<main>` that holds only a fraction of the text is a layout wrapper, not the content.
    if (focused.length >= whole.length * 0.3) return { title, text: focused };
  }
  return { title, text: whole };
}

/** Tags stripped, entities decoded, whitespace collapsed (search snippets, titles). */
export function plainTextOf(fragment: string): string {
  return tokenizeHtml(fragment)
    .map((token) => {
      if (token.kind === "text") return decodeHtmlEntities(token.text);
      // `<b>fawns</b>.` reads "fawns."; other tags separate words.
      return INLINE_ELEMENTS.has(token.name) ? "" : " ";
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function pageTitle(tokens: readonly HtmlToken[]): string | null {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token?.kind === "start" && token.name === "title") {
      const next = tokens[index + 1];
      const text = next?.kind === "text" ? plainTextOf(next.text) : "";
      if (text) return text;
    }
  }
  for (const token of tokens) {
    if (token.kind === "start" && token.name === "meta") {
      const property = attributeOf(token, "property") ?? attributeOf(token, "name");
      const content = attributeOf(token, "content")?.trim();
      if (property === "og:title" && content) return content;
    }
  }
  return null;
}

function contentRoot(tokens: readonly HtmlToken[]): HtmlToken[] | null {
  for (const name of CONTENT_ROOTS) {
    const ranges = elementRanges(tokens, name);
    if (ranges.length === 1 && ranges[0]) return tokens.slice(ranges[0][0], ranges[0][1]);
  }
  return null;
}

/** [start, end) token ranges of each outermost `name` element. */
function elementRanges(tokens: readonly HtmlToken[], name: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let depth = 0;
  let start = 0;
  tokens.forEach((token, index) => {
    if (token.kind === "start" && token.name === name && !token.selfClosing) {
      if (depth === 0) start = index;
      depth += 1;
    } else if (token.kind === "end" && token.name === name && depth > 0) {
      depth -= 1;
      if (depth === 0) ranges.push([start, index + 1]);
    }
  });
  if (depth > 0) ranges.push([start, tokens.length]);
  return ranges;
}
