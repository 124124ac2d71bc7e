#!/usr/bin/env python3
"""region_mix_expect.py REGIONS_JSON — the sentence the report's "Where the
time goes" note should hold, computed from `amdahl regions SWEEP -n 0
--json` alone: the (profiler, kind) with the most self time (steps, phases
and devices contain or re-split the others, so they are not drawn), its
region with the largest summed share over the configurations, and that
region's lowest and highest share (0 where a configuration lacks it)."""
import collections, json, sys

rows = [r for r in json.load(open(sys.argv[1]))["regions"]
        if r["kind"] not in ("step", "phase", "device") and r["self_ns"] is not None]
per_pair = collections.Counter()
for r in rows:
    per_pair[(r["source"], r["kind"])] += max(r["self_ns"], 0)
src, kind = max(per_pair, key=per_pair.get)
configs = sorted({(r["strategy"], r["n"]) for r in rows})
share = collections.defaultdict(dict)
for r in rows:
    if (r["source"], r["kind"]) == (src, kind):
        share[r["name"]][(r["strategy"], r["n"])] = r["share"]
top = max(share, key=lambda k: sum(share[k].values()))
vals = [share[top].get(c, 0.0) for c in configs]
print(f"Where the time goes ({src} {kind} self time): {top} is the largest region, "
      f"{100 * min(vals):.0f}%–{100 * max(vals):.0f}% across the {len(configs)} configurations.")
