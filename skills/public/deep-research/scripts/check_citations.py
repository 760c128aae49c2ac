#!/usr/bin/env python3
"""Check a Markdown research report's citations: every [n] cited has a source, every source is cited.

Usage: check_citations.py REPORT.md
Sources are the numbered entries under a "Sources" (or "References") heading, "[n] Title - URL".
Prints OK and exits 0, or lists each problem and exits 1. Standard library only.
"""

import re
import sys

HEADING = re.compile(r"^#{1,6}\s+(sources|references)\s*$", re.IGNORECASE)
ANY_HEADING = re.compile(r"^#{1,6}\s+")
ENTRY = re.compile(r"^\s*(?:[-*]\s*)?\[(\d+)\]\s*(.*)$")
CITATION = re.compile(r"\[(\d+(?:\s*[,-]\s*\d+)*)\]")
URL = re.compile(r"https?://\S+")


def cited_numbers(text):
    numbers = set()
    for group in CITATION.findall(text):
        for part in re.split(r"\s*,\s*", group):
            if "-" in part:
                low, high = (int(n) for n in part.split("-", 1))
                numbers.update(range(low, high + 1))
            else:
                numbers.add(int(part))
    return numbers


def split_report(lines):
    body, sources, in_sources = [], {}, False
    for line in lines:
        if HEADING.match(line):
            in_sources = True
            continue
        if in_sources and ANY_HEADING.match(line):
            in_sources = False
        entry = ENTRY.match(line) if in_sources else None
        if entry:
            sources[int(entry.group(1))] = entry.group(2).strip()
        elif not in_sources:
            body.append(line)
    return "\n".join(body), sources


def main(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    body, sources = split_report(lines)
    problems = []
    if not sources:
        problems.append('no "## Sources" section with entries like "[1] Title - https://..."')
    cited = cited_numbers(body)
    if not cited:
        problems.append("the report cites no source ([1], [2], ...)")
    for number in sorted(cited - sources.keys()):
        problems.append(f"[{number}] is cited but has no entry under Sources")
    for number in sorted(sources.keys() - cited):
        problems.append(f"source [{number}] is listed but never cited")
    for number, entry in sorted(sources.items()):
        if not URL.search(entry):
            problems.append(f"source [{number}] has no http(s) URL")
    if problems:
        for problem in problems:
            print(f"problem: {problem}")
        return 1
    print(f"OK: {len(cited)} sources cited, all listed with URLs")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_citations.py REPORT.md")
    sys.exit(main(sys.argv[1]))
