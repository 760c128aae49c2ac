#!/usr/bin/env python3
"""Draw a bar or line chart from a CSV file as a self-contained SVG (standard library only).

Usage: svg_chart.py DATA.csv OUT.svg [--type bar|line] [--title TEXT] [--y-label TEXT]
DATA.csv: a header row; the first column holds the labels, each further column one numeric series.
"""

import argparse
import csv
import math
from html import escape

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9"]
WIDTH, HEIGHT = 800, 480
LEFT, RIGHT, TOP, BOTTOM = 80, 30, 60, 80


def read_table(path):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = [row for row in csv.reader(handle) if any(cell.strip() for cell in row)]
    if len(rows) < 2 or len(rows[0]) < 2:
        raise SystemExit("need a header row, a label column and at least one numeric column")
    header, body = rows[0], rows[1:]
    labels = [row[0].strip() for row in body]
    series = []
    for index, name in enumerate(header[1:], start=1):
        values = []
        for line, row in enumerate(body, start=2):
            cell = row[index].strip().replace(",", "") if index < len(row) else ""
            try:
                values.append(float(cell))
            except ValueError:
                raise SystemExit(f"line {line}, column {name!r}: {cell!r} is not a number")
        series.append((name.strip(), values))
    return labels, series[: len(PALETTE)]


def nice_step(span, ticks=5):
    raw = span / ticks if span > 0 else 1
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def fmt(value):
    return f"{value:,.0f}" if abs(value) >= 100 or value == int(value) else f"{value:,.2g}"


def draw(labels, series, kind, title, y_label):
    values = [v for _, vs in series for v in vs]
    low, high = min(0.0, min(values)), max(0.0, max(values))
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step or step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    y = lambda v: TOP + plot_h * (high - v) / (high - low)  # noqa: E731
    band = plot_w / max(1, len(labels))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="30" text-anchor="middle" font-size="18" font-weight="bold">'
        f"{escape(title)}</text>",
    ]
    tick = low
    while tick <= high + step / 2:
        ty = y(tick)
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 8}" y="{ty + 4:.1f}" text-anchor="end">{fmt(tick)}</text>')
        tick += step
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#333"/>')
    if y_label:
        out.append(
            f'<text transform="translate(20 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
            f"{escape(y_label)}</text>"
        )
    for i, label in enumerate(labels):
        cx = LEFT + band * (i + 0.5)
        out.append(f'<text x="{cx:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{escape(label)}</text>')
    for s, (name, vs) in enumerate(series):
        color = PALETTE[s]
        if kind == "bar":
            width = band * 0.8 / len(series)
            for i, v in enumerate(vs):
                x = LEFT + band * i + band * 0.1 + width * s
                top, bottom = sorted((y(v), y(0)))
                out.append(
                    f'<rect x="{x:.1f}" y="{top:.1f}" width="{width:.1f}" height="{bottom - top:.1f}" '
                    f'fill="{color}"><title>{escape(name)} {escape(labels[i])}: {fmt(v)}</title></rect>'
                )
        else:
            points = " ".join(f"{LEFT + band * (i + 0.5):.1f},{y(v):.1f}" for i, v in enumerate(vs))
            out.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2.5"/>')
            for i, v in enumerate(vs):
                out.append(
                    f'<circle cx="{LEFT + band * (i + 0.5):.1f}" cy="{y(v):.1f}" r="3.5" fill="{color}">'
                    f"<title>{escape(name)} {escape(labels[i])}: {fmt(v)}</title></circle>"
                )
        lx = LEFT + s * 160
        out.append(f'<rect x="{lx}" y="{HEIGHT - 28}" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{lx + 18}" y="{HEIGHT - 18}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("--type", choices=["bar", "line"], default="bar")
    parser.add_argument("--title", default="")
    parser.add_argument("--y-label", default="")
    args = parser.parse_args()
    labels, series = read_table(args.data)
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(draw(labels, series, args.type, args.title, args.y_label))
    print(f"wrote {args.out}: {args.type} chart, {len(labels)} labels, {len(series)} series")


if __name__ == "__main__":
    main()
