/**
 * The HTML → readable text converter web_fetch uses: structure kept as markdown (headings,
 * lists, links, code, tables, quotes), page chrome and code dropped, entities decoded, broken
 * markup survived.
 */
import { describe, expect, it } from "vitest";
import { decodeHtmlEntities } from "../../src/agent/tools/web/html/html-entities.js";
import { htmlToText, plainTextOf } from "../../src/agent/tools/web/html/html-to-text.js";
import { ARTICLE_HTML } from "./web-fixture-server.js";

describe("htmlToText", async () => {
  it("turns an article into markdown-ish text under its title, without nav, footer or scripts", async () => {
    const page = await htmlToText(ARTICLE_HTML, "https://example.com/blog/post");
    expect(page.title).toBe("Fawn & the Web");
    expect(page.text).toBe(
      [
        "# Fawn reads pages",
        "",
        "The [tool docs](https://example.com/docs/tools?x=1&y=2) explain web_fetch.",
        "",
        "- Readable text",
        "- Links kept",
        "",
        "```",
        "const answer = 42;",
        "if (a < b) return;",
        "```",
      ].join("\n"),
    );
  });

  it("keeps the whole body when <main> holds only a small part of the text", async () => {
    const filler = "word ".repeat(200);
    const page = await htmlToText(`<body><main>tiny</main><div><p>${filler}</p></div></body>`);
    expect(page.text).toContain("tiny");
    expect(page.text).toContain(filler.trim());
  });

  it("numbers ordered lists from their start, indents nested lists, keeps lists tight", async () => {
    const page = await htmlToText(
      '<ol start="3"><li><p>three</p></li><li>four<ul><li>four-a</li></ul></li></ol>',
    );
    expect(page.text).toBe("3. three\n4. four\n  - four-a");
  });

  it("renders tables as rows of cells with a header separator", async () => {
    const page = await htmlToText(
      "<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody><tr><td>a<p>b</p></td><td>2</td></tr></tbody></table>",
    );
    expect(page.text).toBe("| Name | Size |\n| --- | --- |\n| a b | 2 |");
  });

  it("headings, line breaks, rules and quotes", async () => {
    const page = await htmlToText(
      "<h2>Part</h2>one<br>two<hr><blockquote>said<br>twice</blockquote><h3>End</h3>",
    );
    expect(page.text).toBe("## Part\n\none\ntwo\n\n---\n\n> said\n> twice\n\n### End");
  });

  it("drops links that go nowhere useful and keeps their text", async () => {
    const page = await htmlToText(
      '<p><a href="#top">top</a> <a href="javascript:void(0)">js</a> <a href="mailto:a@b.c">mail</a> <a href="https://x.test/">https://x.test/</a></p>',
    );
    expect(page.text).toBe("top js mail https://x.test/");
  });

  it("survives broken markup: unclosed tags, stray brackets, unterminated comments", async () => {
    const page = await htmlToText(
      "<div><p>a < b and c > d<p>next <b>bold<div>after<!-- never closed",
    );
    expect(page.text).toBe("a < b and c > d\n\nnext bold\nafter");
  });

  it("ignores markup inside scripts and styles, even when it looks like tags", async () => {
    const page = await htmlToText(
      "<p>before</p><script>if (a</b) { x = '<p>fake</p>' }</script><style>p::after{content:'<i>'}</style><p>after</p>",
    );
    expect(page.text).toBe("before\n\nafter");
  });

  it("takes og:title when there is no <title>, and null when there is neither", async () => {
    expect((await htmlToText('<meta property="og:title" content="From OG"><p>x</p>')).title).toBe(
      "From OG",
    );
    expect((await htmlToText("<p>x</p>")).title).toBeNull();
  });

  it("converts a 2 MB page in slices, letting the event loop turn meanwhile", async () => {
    const block = '<p>Text with <a href="/x">a link</a> and <b>bold</b> &amp; more.</p>\n';
    const html = `<body>${block.repeat(Math.floor(2_000_000 / block.length))}</body>`;
    let turns = 0;
    let converting = true;
    const count = () => {
      turns += 1;
      if (converting) setImmediate(count);
    };
    setImmediate(count);
    const page = await htmlToText(html, "https://example.com/");
    converting = false;
    expect(page.text.startsWith("Text with [a link](https://example.com/x) and bold & more.")).toBe(
      true,
    );
    expect(turns).toBeGreaterThan(5);
  });
});

describe("decodeHtmlEntities and plainTextOf", () => {
  it("decodes named, decimal and hex references and leaves unknown ones", () => {
    expect(decodeHtmlEntities("caf&eacute; &copy; &#169; &#xA9; &#x1F600; &bogus; &#0;")).toBe(
      "café © © © 😀 &bogus; \uFFFD",
    );
  });

  it("strips tags from snippets and collapses whitespace", () => {
    expect(plainTextOf("  Result <b>1</b>\n &amp;   <em>more</em> ")).toBe("Result 1 & more");
  });
});
