#!/usr/bin/env python3
"""Check a single-file web page: document basics, headings, alt text, labels, no external loads.

Usage: check_page.py PAGE.html
Prints OK and exits 0, or lists each problem and exits 1. Standard library only.
"""

import sys
from html.parser import HTMLParser

# Attributes that make the browser fetch something when the page loads.
LOADING_ATTRIBUTES = {
    "script": "src",
    "link": "href",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
}


class PageAudit(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.doctype = False
        self.lang = False
        self.charset = False
        self.viewport = False
        self.title = ""
        self.in_title = False
        self.last_heading = 0
        self.h1_count = 0
        self.labelled_ids = set()
        self.fields = []

    def handle_decl(self, decl):
        if decl.lower().startswith("doctype html"):
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        a = {name: (value or "") for name, value in attrs}
        if tag == "html" and a.get("lang"):
            self.lang = True
        if tag == "meta" and ("charset" in a or a.get("http-equiv", "").lower() == "content-type"):
            self.charset = True
        if tag == "meta" and a.get("name", "").lower() == "viewport":
            self.viewport = True
        if tag == "title":
            self.in_title = True
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            level = int(tag[1])
            self.h1_count += level == 1
            if self.last_heading and level > self.last_heading + 1:
                self.problems.append(f"heading <{tag}> follows <h{self.last_heading}>: a level is skipped")
            self.last_heading = level
        if tag == "img" and "alt" not in a:
            self.problems.append(f"<img src={a.get('src', '')[:40]!r}> has no alt attribute")
        if tag == "label" and a.get("for"):
            self.labelled_ids.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type", "") not in ("hidden", "submit", "button"):
            self.fields.append(a)
        attribute = LOADING_ATTRIBUTES.get(tag)
        target = a.get(attribute, "") if attribute else ""
        if tag == "link" and a.get("rel", "").lower() not in ("stylesheet", "icon", "preload", "modulepreload"):
            target = ""
        if target.startswith(("http://", "https://", "//")):
            self.problems.append(f"<{tag}> loads {target[:60]} from another host; inline it instead")

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_title:
            self.title += data

    def report(self):
        problems = list(self.problems)
        if not self.doctype:
            problems.append("missing <!DOCTYPE html>")
        if not self.lang:
            problems.append('missing <html lang="...">')
        if not self.charset:
            problems.append('missing <meta charset="utf-8">')
        if not self.viewport:
            problems.append('missing <meta name="viewport" ...> (the page will not fit phones)')
        if not self.title.strip():
            problems.append("missing or empty <title>")
        if self.h1_count != 1:
            problems.append(f"expected exactly one <h1>, found {self.h1_count}")
        for field in self.fields:
            named = field.get("aria-label") or field.get("id", "") in self.labelled_ids
            if not named:
                problems.append(f"form field {field.get('name') or field.get('id') or '?'} has no label")
        return problems


def main(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    audit = PageAudit()
    audit.feed(text)
    problems = audit.report()
    if "@import url(http" in text or "url(https://" in text or "url(http://" in text:
        problems.append("CSS loads a resource from another host; inline it instead")
    if problems:
        for problem in problems:
            print(f"problem: {problem}")
        return 1
    print(f"OK: {audit.title.strip()!r}, {len(text.encode('utf-8')) // 1024} KB, self-contained")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_page.py PAGE.html")
    sys.exit(main(sys.argv[1]))
