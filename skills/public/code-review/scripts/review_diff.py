#!/usr/bin/env python3
"""Summarise a unified diff and flag added lines that deserve a close look (standard library only).

Usage: review_diff.py CHANGE.diff      (or "-" to read the diff from standard input)
Prints Markdown: per-file added/removed counts, then flagged lines as path:line with the reason.
"""

import re
import sys

# (reason, pattern) checked against each added line; leads for a reviewer, not verdicts.
CHECKS = [
    ("possible secret", re.compile(r"(AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY|"
                                   r"(api[_-]?key|secret|password|token)\s*[:=]\s*['\"][^'\"]{8,})", re.I)),
    ("eval/exec of dynamic code", re.compile(r"\b(eval|exec)\s*\(|new Function\s*\(")),
    ("shell command built at runtime", re.compile(r"shell\s*=\s*True|os\.system\(|child_process|execSync\(|`[^`]*\$\{[^}]+\}[^`]*`\s*\)")),
    ("SQL built from strings", re.compile(r"\bf['\"].*?\b(SELECT|INSERT|UPDATE|DELETE)\b.*\{|"
                                          r"\b(SELECT|INSERT|UPDATE|DELETE)\b[^;\n]*(['\"]\s*\+|\$\{|['\"]\s*%\s*[(\w])", re.I)),
    ("unsafe deserialisation", re.compile(r"pickle\.loads?\(|yaml\.load\((?![^)]*SafeLoader)|marshal\.loads\(")),
    ("HTML injected without escaping", re.compile(r"\.innerHTML\s*=|dangerouslySetInnerHTML|\|\s*safe\b")),
    ("TLS verification disabled", re.compile(r"verify\s*=\s*False|rejectUnauthorized\s*:\s*false|InsecureSkipVerify")),
    ("debug output left in", re.compile(r"console\.(log|debug)\(|\bdebugger;|\bbreakpoint\(\)|^\s*print\(")),
    ("TODO/FIXME left in", re.compile(r"\b(TODO|FIXME|XXX|HACK)\b")),
    ("broad exception swallowed", re.compile(r"except\s*(Exception)?\s*:\s*(pass)?\s*$|catch\s*\([^)]*\)\s*\{\s*\}")),
]
TEST_PATH = re.compile(r"(^|/)(tests?|__tests__|spec)/|[._-](test|spec)\.[a-z]+$")


def strip_prefix(path):
    path = path.split("\t")[0].strip()
    return path[2:] if path[:2] in ("a/", "b/") else path


def parse(lines):
    files, current, new_line = [], None, 0
    lines = [raw.rstrip("\n") for raw in lines]
    index = 0
    while index < len(lines):
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        index += 1
        if line.startswith("--- ") and following.startswith("+++ "):
            old, new = strip_prefix(line[4:]), strip_prefix(following[4:])
            deleted = new == "/dev/null"
            current = {"path": old if deleted else new, "added": 0, "removed": 0, "flags": [], "deleted": deleted}
            files.append(current)
            index += 1
        elif line.startswith("@@"):
            match = re.search(r"\+(\d+)", line)
            new_line = int(match.group(1)) if match else 0
        elif current is None or line.startswith(("diff ", "index ", "\\")):
            continue
        elif line.startswith("+"):
            current["added"] += 1
            for reason, pattern in CHECKS:
                if pattern.search(line[1:]):
                    current["flags"].append((new_line, reason, line[1:].strip()[:100]))
            new_line += 1
        elif line.startswith("-"):
            current["removed"] += 1
        else:
            new_line += 1
    return files


def main(source):
    text = sys.stdin.readlines() if source == "-" else open(source, encoding="utf-8").readlines()
    files = parse(text)
    if not files:
        print("No unified diff found (expected lines starting with ---, +++ and @@).")
        return 1
    print(f"## Change map: {len(files)} files, +{sum(f['added'] for f in files)} -{sum(f['removed'] for f in files)}\n")
    print("| File | Added | Removed | Note |\n|---|---:|---:|---|")
    for f in files:
        note = "deleted" if f.get("deleted") else ("test" if TEST_PATH.search(f["path"]) else "")
        print(f"| {f['path']} | {f['added']} | {f['removed']} | {note} |")
    if not any(TEST_PATH.search(f["path"]) for f in files if not f.get("deleted")):
        print("\nNo test file changed: check whether the change is covered.")
    deleted_tests = [f["path"] for f in files if f.get("deleted") and TEST_PATH.search(f["path"])]
    for path in deleted_tests:
        print(f"\nTest file deleted: {path}")
    flagged = [(f["path"], *flag) for f in files for flag in f["flags"]]
    print(f"\n## Lines to look at ({len(flagged)})\n")
    for path, line, reason, code in flagged:
        print(f"- {path}:{line} - {reason}: `{code}`")
    if not flagged:
        print("- none flagged; read the hunks anyway.")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: review_diff.py CHANGE.diff  (or - for standard input)")
    sys.exit(main(sys.argv[1]))
