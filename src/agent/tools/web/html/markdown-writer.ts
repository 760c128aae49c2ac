import {
  BLOCK_ELEMENTS,
  DROPPED_ELEMENTS,
  HEADING,
  PARAGRAPH_ELEMENTS,
  VOID_ELEMENTS,
} from "./html-elements.js";
import { decodeHtmlEntities } from "./html-entities.js";
import { attributeOf, type HtmlToken, yieldToEventLoop } from "./html-tokens.js";
import { OutputBuffer } from "./output-buffer.js";

/** Tokens written between two yields to the event loop. */
const TOKENS_PER_SLICE = 5_000;

interface OpenElement {
  name: string;
  /** Output mark where a link's text starts, and where it points. */
  linkStart?: number;
  href?: string;
  /** Next number of an `<ol>`. */
  counter?: number;
  /** Cells written so far in a `<tr>`, and whether any was a `<th>`. */
  cells?: number;
  headerRow?: boolean;
  /** Rows written so far in a `<table>`. */
  rows?: number;
}

/** Writes markdown-ish text for a token stream; one instance per rendering. */
export class MarkdownWriter {
  private readonly out = new OutputBuffer();
  private pendingBreak = 0;
  private pendingSpace = false;
  private readonly stack: OpenElement[] = [];
  private dropped = 0;
  private preformatted = 0;
  private quoted = 0;
  private inCell = 0;
  /** Output length right after a list, heading or cell marker: no line break may follow it. */
  private markerEnd = -1;

  constructor(private readonly baseUrl: string | undefined) {}

  async render(tokens: readonly HtmlToken[]): Promise<string> {
    for (let index = 0; index < tokens.length; index += 1) {
      // Big pages are written in slices so other runs on the event loop go on meanwhile.
      if (index > 0 && index % TOKENS_PER_SLICE === 0) await yieldToEventLoop();
      const token = tokens[index];
      if (token?.kind === "text") this.text(token.text);
      else if (token?.kind === "start") this.open(token);
      else if (token?.kind === "end") this.close(token.name);
    }
    while (this.stack.length > 0) this.pop();
    return this.out
      .toString()
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }

  private open(token: Extract<HtmlToken, { kind: "start" }>): void {
    const { name, selfClosing } = token;
    if (VOID_ELEMENTS.has(name)) {
      if (this.dropped > 0) return;
      if (name === "br") this.lineBreak();
      else if (name === "hr") this.writeBlock("---", 2);
      return;
    }
    if (selfClosing) return;
    const element: OpenElement = { name };
    this.stack.push(element);
    if (DROPPED_ELEMENTS.has(name)) this.dropped += 1;
    if (this.dropped > 0) return;
    const heading = HEADING.exec(name);
    if (heading) {
      this.blockBreak(2);
      this.write(`${"#".repeat(Number(heading[1]))} `);
      this.markerEnd = this.out.length;
      return;
    }
    switch (name) {
      case "pre":
        this.blockBreak(2);
        this.write("```\n");
        this.preformatted += 1;
        return;
      case "blockquote":
        this.blockBreak(2);
        this.quoted += 1;
        return;
      case "ol":
        element.counter = Number.parseInt(attributeOf(token, "start") ?? "1", 10) || 1;
        break;
      case "li":
        this.openListItem();
        return;
      case "table":
        element.rows = 0;
        break;
      case "tr":
        element.cells = 0;
        element.headerRow = false;
        this.blockBreak(1);
        return;
      case "td":
      case "th":
        this.openCell(name === "th");
        return;
      case "a":
        this.openLink(element, attributeOf(token, "href"));
        return;
      case "code":
        if (this.preformatted === 0) this.write("`");
        return;
      case "img":
        return;
    }
    if (BLOCK_ELEMENTS.has(name)) this.blockBreak(this.breaksAround(name));
  }

  private close(name: string): void {
    if (VOID_ELEMENTS.has(name)) return;
    let at = this.stack.length - 1;
    while (at >= 0 && this.stack[at]?.name !== name) at -= 1;
    if (at === -1) return;
    while (this.stack.length > at) this.pop();
  }

  private pop(): void {
    const element = this.stack.pop();
    if (!element) return;
    const { name } = element;
    const wasDropped = this.dropped > 0;
    if (DROPPED_ELEMENTS.has(name)) this.dropped -= 1;
    if (wasDropped) return;
    if (HEADING.test(name)) {
      this.blockBreak(2);
      return;
    }
    switch (name) {
      case "pre":
        this.preformatted -= 1;
        if (this.out.lastChar !== "\n") this.out.append("\n");
        this.out.append("```");
        this.blockBreak(2);
        return;
      case "blockquote":
        this.quoted -= 1;
        this.blockBreak(2);
        return;
      case "td":
      case "th":
        this.inCell -= 1;
        return;
      case "tr":
        this.closeRow(element);
        return;
      case "a":
        this.closeLink(element);
        return;
      case "code":
        if (this.preformatted === 0) this.write("`");
        return;
    }
    if (BLOCK_ELEMENTS.has(name)) this.blockBreak(this.breaksAround(name));
  }

  /** Newlines around a block: a blank line for paragraphs, except inside a list (tight lists). */
  private breaksAround(name: string): number {
    const inListItem = this.stack.some((element) => element.name === "li");
    return PARAGRAPH_ELEMENTS.has(name) && !inListItem ? 2 : 1;
  }

  private text(raw: string): void {
    if (this.dropped > 0) return;
    const decoded = decodeHtmlEntities(raw);
    if (this.preformatted > 0) {
      this.flushBreak();
      this.out.append(decoded);
      return;
    }
    const collapsed = decoded.replace(/\s+/g, " ");
    if (collapsed.startsWith(" ")) this.pendingSpace = true;
    const words = collapsed.trim();
    if (words) this.write(words);
    if (collapsed.endsWith(" ")) this.pendingSpace = true;
  }

  private openListItem(): void {
    const lists = this.stack.filter((element) => element.name === "ul" || element.name === "ol");
    const list = lists.at(-1);
    this.blockBreak(1);
    const indent = "  ".repeat(Math.max(0, lists.length - 1));
    if (list?.name === "ol") {
      const number = list.counter ?? 1;
      list.counter = number + 1;
      this.write(`${indent}${number}. `);
    } else {
      this.write(`${indent}- `);
    }
    this.markerEnd = this.out.length;
  }

  private openCell(header: boolean): void {
    const row = this.stack.findLast((element) => element.name === "tr");
    if (row) {
      row.cells = (row.cells ?? 0) + 1;
      if (header) row.headerRow = true;
      // The separator carries its own spaces.
      this.pendingSpace = false;
      this.write(row.cells === 1 ? "| " : " | ");
    } else {
      this.pendingSpace = true;
    }
    this.inCell += 1;
  }

  private closeRow(row: OpenElement): void {
    if (!row.cells) return;
    this.out.append(" |");
    const table = this.stack.findLast((element) => element.name === "table");
    if (table) {
      table.rows = (table.rows ?? 0) + 1;
      if (table.rows === 1 && row.headerRow) {
        this.out.append(`\n|${" --- |".repeat(row.cells)}`);
      }
    }
    this.blockBreak(1);
  }

  private openLink(element: OpenElement, href: string | undefined): void {
    const target = this.absoluteHttpUrl(href);
    if (!target || this.preformatted > 0 || this.inCell > 0) return;
    this.flushBreak();
    if (this.pendingSpace && this.out.length > 0 && !/\s/.test(this.out.lastChar)) {
      this.out.append(" ");
    }
    this.pendingSpace = false;
    element.linkStart = this.out.mark;
    element.href = target;
  }

  private closeLink(element: OpenElement): void {
    if (element.linkStart === undefined || !element.href) return;
    const text = this.out.takeSince(element.linkStart);
    // Links around whole blocks (cards, teasers) stay plain text.
    const plain = !text.trim() || text.includes("\n") || text.trim() === element.href;
    this.out.append(plain ? text : `[${text.trim()}](${element.href})`);
  }

  private absoluteHttpUrl(href: string | undefined): string | null {
    if (!href || href.startsWith("#")) return null;
    try {
      const url = this.baseUrl ? new URL(href, this.baseUrl) : new URL(href);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
    } catch {
      return null;
    }
  }

  private write(text: string): void {
    this.flushBreak();
    if (this.pendingSpace && this.out.length > 0 && !/[\s([]/.test(this.out.lastChar)) {
      this.out.append(" ");
    }
    this.pendingSpace = false;
    this.out.append(text);
  }

  private writeBlock(text: string, breaks: number): void {
    this.blockBreak(breaks);
    this.write(text);
    this.blockBreak(breaks);
  }

  private lineBreak(): void {
    if (this.inCell > 0) {
      this.pendingSpace = true;
      return;
    }
    this.flushBreak();
    this.out.append(`\n${"> ".repeat(this.quoted)}`);
    this.pendingSpace = false;
  }

  /** Asks for `count` newlines before the next text; inside table cells a space will do. */
  private blockBreak(count: number): void {
    if (this.out.length === this.markerEnd) return;
    if (this.inCell > 0) {
      this.pendingSpace = true;
      return;
    }
    this.pendingBreak = Math.max(this.pendingBreak, count);
  }

  private flushBreak(): void {
    if (this.pendingBreak === 0) return;
    // Spaces left before the newline are trimmed once, in render().
    if (this.out.length > 0) {
      this.out.append("\n".repeat(Math.max(0, this.pendingBreak - this.out.trailingNewlines)));
      this.out.append("> ".repeat(this.quoted));
    }
    this.pendingBreak = 0;
    this.pendingSpace = false;
  }
}
