#!/usr/bin/python3
"""usl_curves_on_chart.py SPEEDUP.svg STATS.json — reads the dotted USL
curves back from the speedup chart and checks each against
S(n) = X(n)/X(b), X(n) = γn/(1 + α(n−1) + βn(n−1)), with the parameters
of `amdahl stats --json`. The axis mapping comes from the ideal line
(S = n/b on log2-log2 axes: its two ends fix it), independently of the
chart code. Prints "STRATEGY ok" per strategy (one line, space-separated),
or what is off: "off by P pt, n A..B" or "K curves"."""
import json
import math
import re
import sys

svg = open(sys.argv[1]).read()
sw = json.load(open(sys.argv[2]))["sweeps"][0]
paths = []
for style, d in re.findall(r'<path style="([^"]*)" d="([^"]*)"', svg):
    pts = [(float(x), float(y)) for x, y in re.findall(r"[ML] ([-\d.]+) ([-\d.]+)", d)]
    paths.append((style, pts))
# the ideal line: the longest thin grey path, S = n/b from n = b to the largest n
ideal = max((p for s, p in paths if "stroke:rgb(45%,45%,45%)" in s and "stroke-width:1.1" in s), key=len)
ns = sorted({p["n"] for st in sw["strategies"] for p in st["points"]})
b, nmax = ns[0], ns[-1]
(x0, y0), (x8, y8) = ideal[0], ideal[-1]
kx = (x8 - x0) / math.log2(nmax / b)
ky = (y0 - y8) / math.log2(nmax / b)
okabe = {0: "rgb(0%,44.705882%,69.803922%)", 1: "rgb(90.196078%,62.352941%,0%)"}
out = []
for i, st in enumerate(sw["strategies"]):
    u = st["usl"]
    X = lambda n: u["gamma"] * n / (1 + u["alpha"] * (n - 1) + u["beta"] * n * (n - 1))
    base = min(p["n"] for p in st["points"])
    curves = [p for s, p in paths if "dasharray:0.1,3.2" in s and okabe[i] in s and len(p) > 4]
    if len(curves) != 1:
        out.append("%s: %d curves" % (st["strategy"], len(curves)))
        continue
    worst = 0
    for x, y in curves[0]:
        n = b * 2 ** ((x - x0) / kx)
        s = X(n) / X(base)
        worst = max(worst, abs(y - (y0 - ky * math.log2(s))))
    span = (b * 2 ** ((curves[0][0][0] - x0) / kx), b * 2 ** ((curves[0][-1][0] - x0) / kx))
    good = worst <= 0.5 and abs(span[0] - base) < 0.05 and abs(span[1] - nmax) < 0.05
    out.append("%s %s" % (st["strategy"], "ok" if good else "off by %.2f pt, n %.2f..%.2f" % (worst, *span)))
print(" ".join(out))
