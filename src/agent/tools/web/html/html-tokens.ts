import { decodeHtmlEntities } from "./html-entities.js";

export type HtmlToken =
  | { kind: "text"; text: string }
  | { kind: "start"; name: string; attributes: Record<string, string>; selfClosing: boolean }
  | { kind: "end"; name: string };

/** Elements whose content is raw text up to their end tag (no markup inside). */
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp", "noembed"]);

// A tag: name, then attributes where quoted values may contain `>`.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/**
 * A forgiving HTML tokenizer: start tags (names lower-cased, attribute values decoded), end
 * tags and text (entities left for the caller). Comments, doctypes and processing
 * instructions vanish; a stray `<` is text. Enough for reading pages, not for rendering them.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let position = 0;
  const pushText = (text: string) => {
    if (text) tokens.push({ kind: "text", text });
  };
  while (position < html.length) {
    const open = html.indexOf("<", position);
    if (open === -1) {
      pushText(html.slice(position));
      break;
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
      attributes: parseAttributes(rawAttributes),
      selfClosing: rawAttributes.trimEnd().endsWith("/"),
    });
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = findEndTag(html, name, position);
      pushText(html.slice(position, close.contentEnd));
      tokens.push({ kind: "end", name });
      position = close.after;
    }
  }
  return tokens;
}

function parseAttributes(raw: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of raw.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? "").toLowerCase();
    if (!name || name in attributes) continue;
    attributes[name] = decodeHtmlEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
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
