#!/usr/bin/python3
"""comparison_chart_bars.py COMPARISON.png COMPARE.json — the comparison
chart's bars read back from the PNG's pixels: every bar starts at the
column of ratio 1, its far end and its whiskers lie at 1 + s·(value − 1)
for one scale s across all rows (within 2 px), in chart order (gated rows
grouped by metric), in the verdict's colour. Prints "N bars ok", or up to
four problems separated by "; "."""
import json, sys
from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
W, H = img.size
px = img.load()
d = json.load(open(sys.argv[2]))
rows = [r for r in d["rows"] if r["gated"] and r["baseline"]["runs"] and r["candidate"]["runs"]
        and r["ratio"] is not None]
order = []
for r in rows:
    if r["metric"] not in order:
        order.append(r["metric"])
rows.sort(key=lambda r: order.index(r["metric"]))  # stable: compare's order within a metric
colour = {"regression": (0xD5, 0x5E, 0x00), "improvement": (0x00, 0x9E, 0x73),
          "no_change": (0x00, 0x72, 0xB2), "insufficient_data": (115, 115, 115)}
def near(p, c, t=12):
    return all(abs(p[i] - c[i]) <= t for i in range(3))
# rectangles of each verdict colour: runs in consecutive pixel rows that
# overlap (a whisker across a bar splits its rows, not the bar)
rects = []
for name, c in colour.items():
    open_ = []  # [y0, y1, {y: [x0, x1]}, x0, x1]
    for y in range(H):
        x = 0
        while x < W:
            if near(px[x, y], c):
                x0 = x
                while x < W and near(px[x, y], c):
                    x += 1
                if x - x0 >= 2:
                    a, b = x0, x - 1
                    hit = None
                    for r in open_:  # r[3], r[4]: its extent so far
                        if y - r[1] <= 4 and a <= r[4] + 3 and b >= r[3] - 3:
                            hit = r
                            break
                    if hit is None:
                        hit = [y, y, {}, a, b]
                        open_.append(hit)
                    span = hit[2].get(y, [a, b])
                    hit[2][y] = [min(span[0], a), max(span[1], b)]
                    hit[1], hit[3], hit[4] = y, min(hit[3], a), max(hit[4], b)
            x += 1
    def med(v):
        v = sorted(v)
        return v[len(v) // 2]
    for y0, y1, spans, _, _ in open_:
        if y1 - y0 >= 8:
            rects.append((name, y0, y1, med([s[0] for s in spans.values()]),
                          med([s[1] for s in spans.values()])))
# the column of ratio 1, roughly: where most bars have an edge
edges = [e for r in rects for e in (r[3], r[4])]
guess = max(edges, key=lambda e: (sum(abs(f - e) <= 4 for f in edges), -e))
found = sorted([r for r in rects if min(abs(r[3] - guess), abs(r[4] - guess)) <= 5], key=lambda r: r[1])
moving = [r for r in rows if abs(r["ratio"] - 1) > 0.02]
errs = []
if len(found) != len(moving):
    errs.append("bars: %d found for %d rows" % (len(found), len(moving)))
else:
    # far ends (pixel boundaries) against ratio - 1: fit end = X1 + s (ratio - 1)
    pts = []
    for r, f in zip(moving, found):
        if r["verdict"] != f[0]:
            errs.append("%s n=%g: colour %s, verdict %s" % (r["metric"], r["n"], f[0], r["verdict"]))
        right = abs(f[3] - guess) < abs(f[4] - guess)
        if right != (r["ratio"] > 1):
            errs.append("%s n=%g: bar on the wrong side of 1" % (r["metric"], r["n"]))
        pts.append((r["ratio"] - 1, f[4] + 1 if right else f[3]))
    n = len(pts)
    mx = sum(a for a, _ in pts) / n
    my = sum(b for _, b in pts) / n
    sxx = sum((a - mx) ** 2 for a, _ in pts)
    s = sum((a - mx) * (b - my) for a, b in pts) / sxx if sxx > 0 else 0
    X1 = my - s * mx
    if s <= 0 or abs(X1 - guess) > 3:
        errs.append("scale %g px per unit, ratio 1 at x=%.1f (bars meet at %d)" % (s, X1, guess))
    for (a, b), r in zip(pts, moving):
        if abs(X1 + a * s - b) > 2:
            errs.append("%s n=%g: bar end at x=%.1f, expected %.1f" % (r["metric"], r["n"], b, X1 + a * s))
    # whiskers: dark caps at the interval's ends, above and below the bar's middle
    for r, f in zip(moving, found):
        if not r["ci"]:
            continue
        ym = (f[1] + f[2]) // 2
        for v in (r["ci"]["lo"], r["ci"]["hi"]):
            x = X1 + s * (v - 1)
            dark = [xx for xx in range(int(x) - 2, int(x) + 3) if 0 <= xx < W and
                    max(px[xx, ym - 4]) < 90 and max(px[xx, ym + 4]) < 90]
            if not dark:
                errs.append("%s n=%g: no whisker cap at %.3f (x=%.0f)" % (r["metric"], r["n"], v, x))
print("%d bars ok" % len(found) if not errs else "; ".join(errs[:4]))
