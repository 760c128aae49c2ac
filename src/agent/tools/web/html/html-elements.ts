/** How the HTML reader classifies elements: dropped, void, block, paragraph and inline. */

/** Content a reader never wants: code, styling, chrome, forms and embedded media. */
export const DROPPED_ELEMENTS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "canvas",
  "iframe",
  "object",
  "embed",
  "video",
  "audio",
  "map",
  "nav",
  "aside",
  "footer",
  "form",
  "button",
  "select",
  "dialog",
  "noembed",
  "title",
]);

export const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** Blocks separated by a blank line; the rest of BLOCK_ELEMENTS by a line break. */
export const PARAGRAPH_ELEMENTS = new Set([
  "p",
  "blockquote",
  "pre",
  "table",
  "ul",
  "ol",
  "dl",
  "figure",
  "section",
  "article",
  "main",
  "header",
  "address",
  "details",
  "fieldset",
]);
export const BLOCK_ELEMENTS = new Set([
  ...PARAGRAPH_ELEMENTS,
  "div",
  "li",
  "dt",
  "dd",
  "tr",
  "caption",
  "figcaption",
  "summary",
  "legend",
  "body",
  "center",
  "hgroup",
]);

/** Phrasing elements: their tags do not separate words. */
export const INLINE_ELEMENTS = new Set([
  "a",
  "abbr",
  "b",
  "cite",
  "code",
  "del",
  "em",
  "font",
  "i",
  "ins",
  "kbd",
  "mark",
  "q",
  "s",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
  "var",
]);

/** `h1` … `h6`, capturing the level. */
export const HEADING = /^h([1-6])$/;
