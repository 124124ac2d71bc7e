#!/usr/bin/python3
"""report_json_matches_stats.py REPORT.json STATS.json REPORT_DIR — prints
"ok" when report.json has the sweep, every point's median and speedup of
`amdahl stats --json` (within 1e-9), every chart it lists exists as a
non-empty PNG and SVG under REPORT_DIR, and it lists as many left-out runs
as stats excluded; else the failed assertion."""
import json
import os
import sys

r = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["sweeps"][0]
assert r["sweep"] == s["sweep"], "sweep"
for a, b in zip(r["strategies"], s["strategies"]):
    for p, q in zip(a["points"], b["points"]):
        assert abs(p["median"] - q["median"]) < 1e-9, (p, q)
        assert abs(p["speedup"] - q["speedup"]) < 1e-9
for c in r["charts"]:
    assert os.path.getsize(os.path.join(sys.argv[3], c["png"])) > 0, c
    assert os.path.getsize(os.path.join(sys.argv[3], c["svg"])) > 0, c
assert len(r["left_out"]) == s["runs_excluded"], "left out"
print("ok")
