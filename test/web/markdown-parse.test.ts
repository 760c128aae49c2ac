/** The chat's Markdown subset: blocks and inline spans, and what it refuses to render. */
import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "../../web/src/markdown/markdown-parse.js";

describe("parseMarkdown", () => {
  it("parses headings, paragraphs, lists, code, quotes, rules and tables", () => {
    const blocks = parseMarkdown(
      [
        "# Primes",
        "",
        "There are **25** primes",
        "below 100.",
        "",
        "- two",
        "- three",
        "  continued",
        "",
        "3. c",
        "4. d",
        "",
        "```sh",
        "seq 2 99 | factor",
        "```",
        "> quoted",
        "---",
        "| Decade | Count |",
        "|--------|------:|",
        "| 0–9 | 4 |",
      ].join("\n"),
    );
    expect(blocks).toEqual([
      { kind: "heading", level: 1, children: [{ kind: "text", text: "Primes" }] },
      {
        kind: "paragraph",
        children: [
          { kind: "text", text: "There are " },
          { kind: "strong", children: [{ kind: "text", text: "25" }] },
          { kind: "text", text: " primes\nbelow 100." },
        ],
      },
      {
        kind: "list",
        ordered: false,
        start: 1,
        items: [[{ kind: "text", text: "two" }], [{ kind: "text", text: "three continued" }]],
      },
      {
        kind: "list",
        ordered: true,
        start: 3,
        items: [[{ kind: "text", text: "c" }], [{ kind: "text", text: "d" }]],
      },
      { kind: "code", language: "sh", text: "seq 2 99 | factor" },
      {
        kind: "quote",
        children: [{ kind: "paragraph", children: [{ kind: "text", text: "quoted" }] }],
      },
      { kind: "rule" },
      {
        kind: "table",
        header: [[{ kind: "text", text: "Decade" }], [{ kind: "text", text: "Count" }]],
        rows: [[[{ kind: "text", text: "0–9" }], [{ kind: "text", text: "4" }]]],
      },
    ]);
  });

  it("keeps an unclosed fence as code while it streams", () => {
    expect(parseMarkdown("Look:\n```js\nconst a = 1;")).toEqual([
      { kind: "paragraph", children: [{ kind: "text", text: "Look:" }] },
      { kind: "code", language: "js", text: "const a = 1;" },
    ]);
  });

  it("leaves raw HTML as text", () => {
    expect(parseMarkdown('<img src=x onerror="alert(1)">')).toEqual([
      { kind: "paragraph", children: [{ kind: "text", text: '<img src=x onerror="alert(1)">' }] },
    ]);
  });

  it("parses an empty text to nothing", () => {
    expect(parseMarkdown("")).toEqual([]);
    expect(parseMarkdown("\n\n")).toEqual([]);
  });
});

describe("parseInline", () => {
  it("parses code, emphasis and links", () => {
    expect(parseInline("`a*b*` and *it* and [docs](https://x.dev/a)")).toEqual([
      { kind: "code", text: "a*b*" },
      { kind: "text", text: " and " },
      { kind: "em", children: [{ kind: "text", text: "it" }] },
      { kind: "text", text: " and " },
      { kind: "link", href: "https://x.dev/a", children: [{ kind: "text", text: "docs" }] },
    ]);
  });

  it("does not take snake_case for emphasis", () => {
    expect(parseInline("a snake_case_name here")).toEqual([
      { kind: "text", text: "a snake_case_name here" },
    ]);
  });

  it("drops links to other schemes and keeps their text", () => {
    expect(parseInline("[click](javascript:alert(1))")).toEqual([
      { kind: "text", text: "click" },
      { kind: "text", text: ")" },
    ]);
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("//evil.example/x")).toBeNull();
    expect(safeHref("/api/threads/t/artifacts/x.md")).toBe("/api/threads/t/artifacts/x.md");
    expect(safeHref("mailto:a@b.c")).toBe("mailto:a@b.c");
  });
});
