#!/usr/bin/python3
"""region_shares_on_chart.py CHART.svg REGIONS.json — the report's "Where
the time goes" chart read back from its SVG rectangles against the shares
computed here from `amdahl regions SWEEP -n 0 --json`: the profiler and
kind with the most self time (steps, phases and devices aside), per configuration
(strategy, then n) each region's self time over the configuration's, the
seven largest by summed share and the rest as other, stacked bottom up.
Every segment's height over its column's must equal its share within
0.2 percentage points. Prints "N columns ok" or the differences."""
import collections, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svg_stacked_columns import columns as stacked_columns

rows = json.load(open(sys.argv[2]))["regions"]
columns = stacked_columns(sys.argv[1], min_segments=2)

pair = collections.Counter()
for r in rows:
    if r["kind"] not in ("phase", "device", "step") and r["self_ns"]:
        pair[(r["source"], r["kind"])] += r["self_ns"]
src, kind = pair.most_common(1)[0][0]
sel = [r for r in rows if (r["source"], r["kind"]) == (src, kind)]
configs = sorted({(r["strategy"], r["n"]) for r in sel}, key=lambda c: (c[0] or "", c[1]))
total = collections.Counter()
for r in sel:
    total[(r["strategy"], r["n"])] += r["self_ns"] or 0
share = collections.defaultdict(float)
for r in sel:
    share[(r["strategy"], r["n"], r["name"])] += (r["self_ns"] or 0) / total[(r["strategy"], r["n"])]
score = collections.Counter()
for (s, n, name), v in share.items():
    score[name] += v
top = [name for name, _ in sorted(score.items(), key=lambda kv: -kv[1])[:7]]
bad = []
if len(columns) != len(configs):
    bad.append(f"{len(columns)} columns, {len(configs)} configurations")
for col, (s, n) in zip(columns, configs):
    want = [share[(s, n, name)] for name in top]
    want.append(max(1 - sum(want), 0))
    h = col
    # segments of zero height are not drawn: compare the non-zero ones in order
    want_nz = [w for w in want if w > 1e-4]
    got = [x / sum(h) for x in h]
    got_nz = [g for g in got if g > 1e-4]
    if len(got_nz) != len(want_nz) or any(abs(a - b) > 0.002 for a, b in zip(got_nz, want_nz)):
        bad.append(f"{s} n={n}: {[round(g, 3) for g in got_nz]} != {[round(w, 3) for w in want_nz]}")
print(f"{len(columns)} columns ok" if not bad else "; ".join(bad[:4]))
