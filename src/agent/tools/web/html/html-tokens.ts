import { decodeHtmlEntities } from "./html-entities.js";

export type HtmlToken =
  | { kind: "text"; text: string }
  | {
      kind: "start";
      name: string;
      /** Unparsed; read with `attributeOf` (few tags need any). */
      rawAttributes: string;
      selfClosing: boolean;
    }
  | { kind: "end"; name: string };

/** Elements whose content is raw text up to their end tag (no markup inside). */
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp", "noembed"]);

// A tag: name, then attributes where quoted values may contain `>`.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** Tokens produced between two yields to the event loop in `tokenizeHtmlCooperatively`. */
const TOKENS_PER_SLICE = 5_000;

/**
 * A forgiving HTML tokenizer: start tags (names lower-cased), end tags and text (entities left
 * for the caller). Comments, doctypes and processing instructions vanish; a stray `<` is text.
 * Enough for reading pages, not for rendering them.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let position = 0;
  while (position < html.length) position = tokenizeSlice(html, position, tokens, Infinity);
  return tokens;
}

/** tokenizeHtml for whole pages: yields to the event loop between slices so other runs go on. */
export async function tokenizeHtmlCooperatively(html: string): Promise<HtmlToken[]> {
  const tokens: HtmlToken[] = [];
  let position = 0;
  while (position < html.length) {
    position = tokenizeSlice(html, position, tokens, tokens.length + TOKENS_PER_SLICE);
    if (position < html.length) await yieldToEventLoop();
  }
  return tokens;
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The decoded value of one attribute of a start tag, if present. */
export function attributeOf(token: { rawAttributes: string }, name: string): string | undefined {
  if (!token.rawAttributes.toLowerCase().includes(name)) return undefined;
  for (const match of token.rawAttributes.matchAll(ATTRIBUTE)) {
    if ((match[1] ?? "").toLowerCase() === name) {
      return decodeHtmlEntities(match[2] ?? match[3] ?? match[4] ?? "");
    }
  }
  return undefined;
}

/** Appends tokens from `position` until the input ends or `tokens` reaches `until`. */
function tokenizeSlice(html: string, start: number, tokens: HtmlToken[], until: number): number {
  let position = start;
  const pushText = (text: string) => {
    if (text) tokens.push({ kind: "text", text });
  };
  while (position < html.length && tokens.length < until) {
    const open = html.indexOf("<", position);
    if (open === -1) {
      pushText(html.slice(position));
      return html.length;
    }
    pushText(html.slice(position, open));
    if (html.startsWith("<!--", open)) {
      const close = html.indexOf("-->", open + 4);
      position = close === -1 ? html.length : close + 3;
      continue;
    }
    if (html.startsWith("<!", open) || html.startsWith("<?", open)) {
      const close = html.indexOf(">", open + 2);
      position = close === -1 ? html.length : close + 1;
      continue;
    }
    TAG.lastIndex = open;
    const match = TAG.exec(html);
    if (!match) {
      pushText("<");
      position = open + 1;
      continue;
    }
    position = TAG.lastIndex;
    const name = (match[2] ?? "").toLowerCase();
    if (match[1] === "/") {
      tokens.push({ kind: "end", name });
      continue;
    }
    const rawAttributes = match[3] ?? "";
    tokens.push({
      kind: "start",
      name,
      rawAttributes,
      selfClosing: rawAttributes.endsWith("/"),
    });
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = findEndTag(html, name, position);
      pushText(html.slice(position, close.contentEnd));
      tokens.push({ kind: "end", name });
      position = close.after;
    }
  }
  return position;
}

function findEndTag(
  html: string,
  name: string,
  from: number,
): { contentEnd: number; after: number } {
  const pattern = new RegExp(`</${name}\\s*>`, "ig");
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  if (!match) return { contentEnd: html.length, after: html.length };
  return { contentEnd: match.index, after: match.index + match[0].length };
}
