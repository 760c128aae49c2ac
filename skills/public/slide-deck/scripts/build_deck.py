#!/usr/bin/env python3
"""Build a self-contained HTML slide deck from a Markdown outline (standard library only).

Usage: build_deck.py SLIDES.md OUT.html [--title TEXT] [--theme light|dark]
Slides are separated by a line holding only "---". Supported: # and ## titles, paragraphs,
"- " / "1. " lists (nested by two spaces), **bold**, *italic*, `code`, fenced code blocks,
![alt](src) images, and "Note:" speaker-note lines.
"""

import argparse
import re
from html import escape

MAX_BULLETS = 6
THEMES = {
    "light": ("#ffffff", "#1d2433", "#0b63c4", "#f2f4f8"),
    "dark": ("#14181f", "#e8ecf2", "#6cb4ff", "#222833"),
}


def inline(text):
    out = escape(text, quote=False)
    out = re.sub(
        r"!\[([^\]]*)\]\(([^)\s]+)\)",
        lambda m: f'<img alt="{escape(m.group(1))}" src="{escape(m.group(2))}">',
        out,
    )
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<!\*)\*([^*]+)\*(?!\*)", r"<em>\1</em>", out)


def render_slide(lines):
    html, notes, title, bullets = [], [], "", 0
    stack = []  # open lists as (indent, tag)
    in_code = False

    def close_lists(indent=-1):
        while stack and stack[-1][0] > indent:
            html.append(f"</{stack.pop()[1]}>")

    for line in lines:
        if line.strip().startswith("```"):
            close_lists()
            html.append("</code></pre>" if in_code else "<pre><code>")
            in_code = not in_code
            continue
        if in_code:
            html.append(escape(line))
            continue
        stripped = line.strip()
        item = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", line)
        if not stripped:
            continue
        if stripped.lower().startswith("note:"):
            notes.append(inline(stripped[5:].strip()))
        elif stripped.startswith("#"):
            close_lists()
            level = min(2, len(stripped) - len(stripped.lstrip("#")))
            text = stripped.lstrip("#").strip()
            title = title or text
            html.append(f"<h{level}>{inline(text)}</h{level}>")
        elif item:
            indent = len(item.group(1))
            tag = "ol" if item.group(2)[0].isdigit() else "ul"
            if not stack or indent > stack[-1][0]:
                html.append(f"<{tag}>")
                stack.append((indent, tag))
            else:
                close_lists(indent)
            html.append(f"<li>{inline(item.group(3))}</li>")
            bullets += 1
        else:
            close_lists()
            html.append(f"<p>{inline(stripped)}</p>")
    close_lists()
    if in_code:
        html.append("</code></pre>")
    if notes:
        html.append('<aside class="notes">' + "<br>".join(notes) + "</aside>")
    return "\n".join(html), title, bullets


SCRIPT = """
const slides = [...document.querySelectorAll("section")];
let current = Math.max(0, Math.min(slides.length - 1, (parseInt(location.hash.slice(1)) || 1) - 1));
function show(n) {
  current = Math.max(0, Math.min(slides.length - 1, n));
  slides.forEach((s, i) => s.classList.toggle("active", i === current));
  document.getElementById("counter").textContent = (current + 1) + " / " + slides.length;
  history.replaceState(null, "", "#" + (current + 1));
}
document.addEventListener("keydown", (e) => {
  if (["ArrowRight", "PageDown", " "].includes(e.key)) show(current + 1);
  else if (["ArrowLeft", "PageUp"].includes(e.key)) show(current - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(slides.length - 1);
  else if (e.key === "n" || e.key === "N") document.body.classList.toggle("show-notes");
});
document.addEventListener("click", (e) => show(current + (e.clientX < innerWidth / 3 ? -1 : 1)));
show(current);
"""


def page(title, sections, theme):
    bg, fg, accent, panel = THEMES[theme]
    style = f"""
:root {{ --bg: {bg}; --fg: {fg}; --accent: {accent}; --panel: {panel}; }}
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; height: 100%; background: var(--bg); color: var(--fg);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }}
section {{ display: none; position: absolute; inset: 0; padding: 6vh 8vw; flex-direction: column;
  justify-content: center; font-size: clamp(16px, 2.6vw, 34px); line-height: 1.35; }}
section.active {{ display: flex; }}
section.title-slide {{ text-align: center; align-items: center; }}
h1 {{ font-size: 2.2em; margin: 0 0 .3em; color: var(--accent); }}
h2 {{ font-size: 1.5em; margin: 0 0 .6em; color: var(--accent); }}
li {{ margin: .25em 0; }}
pre {{ background: var(--panel); padding: .8em 1em; border-radius: 8px; font-size: .7em; overflow: auto; }}
code {{ font-family: ui-monospace, Menlo, Consolas, monospace; }}
img {{ max-width: 100%; max-height: 55vh; object-fit: contain; }}
.notes {{ display: none; margin-top: 1em; font-size: .55em; opacity: .75; border-top: 1px solid; padding-top: .5em; }}
body.show-notes .notes {{ display: block; }}
#counter {{ position: fixed; right: 2vw; bottom: 2vh; font-size: 14px; opacity: .6; }}
@media print {{
  @page {{ size: 16in 9in; margin: 0; }}
  section {{ display: flex !important; position: relative; height: 100vh; page-break-after: always; }}
  .notes {{ display: block; }}
  #counter {{ display: none; }}
}}
"""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        + "\n".join(sections)
        + f'\n<div id="counter"></div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n'
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outline")
    parser.add_argument("out")
    parser.add_argument("--title", default="")
    parser.add_argument("--theme", choices=sorted(THEMES), default="light")
    args = parser.parse_args()
    with open(args.outline, encoding="utf-8") as handle:
        text = handle.read()
    chunks = [c.strip("\n").splitlines() for c in re.split(r"^---\s*$", text, flags=re.MULTILINE)]
    chunks = [c for c in chunks if any(line.strip() for line in c)]
    if not chunks:
        raise SystemExit("the outline holds no slides")
    sections, warnings, deck_title = [], [], args.title
    for number, lines in enumerate(chunks, start=1):
        body, title, bullets = render_slide(lines)
        deck_title = deck_title or title
        css = ' class="title-slide"' if number == 1 else ""
        sections.append(f'<section id="s{number}"{css}>\n{body}\n</section>')
        if not title:
            warnings.append(f"slide {number} has no title")
        if bullets > MAX_BULLETS:
            warnings.append(f"slide {number} has {bullets} bullets; split it (at most {MAX_BULLETS})")
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(page(deck_title or "Slides", sections, args.theme))
    print(f"wrote {args.out}: {len(sections)} slides")
    for warning in warnings:
        print(f"warning: {warning}")


if __name__ == "__main__":
    main()
