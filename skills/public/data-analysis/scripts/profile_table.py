#!/usr/bin/env python3
"""Profile a CSV/TSV file: row count and a one-line summary per column (standard library only)."""

import csv
import statistics
import sys
from collections import Counter


def as_number(value):
    try:
        return float(value.replace(",", ""))
    except ValueError:
        return None


def main(path):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        sample = handle.read(4096)
        handle.seek(0)
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t") if sample else csv.excel
        rows = list(csv.DictReader(handle, dialect=dialect))
    print(f"rows: {len(rows)}")
    if not rows:
        return
    for column in rows[0].keys():
        values = [(row.get(column) or "").strip() for row in rows]
        present = [value for value in values if value != ""]
        missing = len(values) - len(present)
        numbers = [n for n in (as_number(value) for value in present) if n is not None]
        if present and len(numbers) == len(present):
            print(
                f"{column}: number, missing={missing}, min={min(numbers):g}, "
                f"max={max(numbers):g}, mean={statistics.fmean(numbers):.4g}"
            )
        else:
            common = ", ".join(f"{value!r}×{count}" for value, count in Counter(present).most_common(3))
            print(f"{column}: text, missing={missing}, distinct={len(set(present))}, top: {common}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: profile_table.py <file.csv>")
    main(sys.argv[1])
