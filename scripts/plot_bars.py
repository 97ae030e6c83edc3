#!/usr/bin/env python3
"""Draws a grouped bar chart as an SVG file, with the standard library only.

usage: plot_bars.py OUT.svg "TITLE" "Y LABEL" SERIES1,SERIES2 GROUP=v1,v2 [GROUP=v1,v2 ...]

Each GROUP is one cluster of bars (one bar per series). Used by docs/benchmarks.md; the figures
come from the benchmarks' own output (see that page for the commands).
"""
import sys


def main(argv):
    if len(argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    out, title, ylabel, series = argv[1], argv[2], argv[3], argv[4].split(",")
    groups = []
    for g in argv[5:]:
        name, values = g.split("=", 1)
        groups.append((name, [float(v) for v in values.split(",")]))
    colors = ["#3b6ea8", "#c8763a", "#5b9a5b", "#9b59b6"]
    width, height, left, bottom, top = 640, 360, 70, 60, 40
    plot_w, plot_h = width - left - 20, height - bottom - top
    vmax = max(v for _, vs in groups for v in vs) * 1.15 or 1
    slot = plot_w / len(groups)
    bar = slot * 0.7 / len(series)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>',
             f'<text x="16" y="{top + plot_h / 2}" transform="rotate(-90 16 {top + plot_h / 2})" '
             f'text-anchor="middle">{ylabel}</text>']
    for k in range(5):
        v = vmax * k / 4
        y = top + plot_h - plot_h * k / 4
        parts.append(f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{v:.3g}</text>')
    for gi, (name, values) in enumerate(groups):
        x0 = left + gi * slot + slot * 0.15
        for si, v in enumerate(values):
            h = plot_h * v / vmax
            x = x0 + si * bar
            parts.append(f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar - 2:.1f}" '
                         f'height="{h:.1f}" fill="{colors[si % len(colors)]}"/>')
            parts.append(f'<text x="{x + bar / 2 - 1:.1f}" y="{top + plot_h - h - 4:.1f}" '
                         f'text-anchor="middle" font-size="10">{v:.3g}</text>')
        parts.append(f'<text x="{left + gi * slot + slot / 2:.1f}" y="{top + plot_h + 18}" '
                     f'text-anchor="middle">{name}</text>')
    for si, s in enumerate(series):
        x = left + si * 130
        y = height - 18
        parts.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" '
                     f'fill="{colors[si % len(colors)]}"/>')
        parts.append(f'<text x="{x + 18}" y="{y}">{s}</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
