#!/usr/bin/python3
"""svg_stacked_columns.py CHART.svg — the stacked bar columns of a chart
read back from its SVG: the filled rectangles standing on the baseline,
grouped by column, each column's segments bottom up as fractions of the
column's height (3 decimals), one column per line. Other checks import
columns() from here."""
import collections, re, sys

RECT = re.compile(r'fill:rgb\(([^)]*)\);fill-opacity:1;" d="M ([0-9.]+) ([0-9.]+) L ([0-9.]+) '
                  r'([0-9.]+) L ([0-9.]+) ([0-9.]+) L ([0-9.]+) ([0-9.]+) Z')


def columns(path, min_segments=1):
    """The columns left to right, each its segments' heights bottom up;
    rectangles not standing on the baseline (legend swatches) and columns
    of fewer than min_segments segments are left out."""
    rects = []
    for m in RECT.finditer(open(path).read()):
        x0, y0, x1, _, _, y1 = (float(m.group(i)) for i in range(2, 8))
        if m.group(1) != "100%,100%,100%" and x1 > x0 and y1 > y0:
            rects.append((round(x0, 1), round(x1, 1), y0, y1))
    base = max(r[3] for r in rects)
    cols = collections.defaultdict(list)
    for x0, x1, y0, y1 in rects:
        cols[(x0, x1)].append((y0, y1))
    out = []
    for _, v in sorted(cols.items()):
        v.sort(key=lambda s: -s[1])
        if abs(v[0][1] - base) <= 0.01 and len(v) >= min_segments:
            out.append([y1 - y0 for y0, y1 in v])
    return out


if __name__ == "__main__":
    for h in columns(sys.argv[1]):
        print(" ".join("%.3f" % (x / sum(h)) for x in h))
