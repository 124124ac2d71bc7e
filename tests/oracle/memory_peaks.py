#!/usr/bin/python3
"""memory_peaks.py MLRUNS caption|stats — the peak of each finished run's
logged max_memory_allocated_mb (bytes), grouped by its world_size param,
computed with the standard library only. `caption`: the medians as the
memory_peak chart's caption gives them ("Medians: ddp: 1.2 GiB at 1, …");
`stats`: a line per n "N|RUNS|MEDIAN|MIN|MAX" as stats --json's
peak_allocated has them."""
import glob
import os
import statistics
import sys

mlruns, mode = sys.argv[1:3]
per_n = {}
for r in glob.glob(os.path.join(mlruns, "*", "*", "")):
    f = os.path.join(r, "metrics", "max_memory_allocated_mb")
    if not os.path.exists(f) or open(os.path.join(r, "meta.yaml")).read().find("status: 3") < 0:
        continue
    peak = max(float(line.split()[1]) for line in open(f)) * 2**20
    per_n.setdefault(int(open(os.path.join(r, "params", "world_size")).read()), []).append(peak)
if mode == "caption":
    out = []
    for n in sorted(per_n):
        v = statistics.median(per_n[n])
        x, u = (v / 2**30, "GiB") if v >= 2**30 else (v / 2**20, "MiB")
        out.append("%.3g %s at %d" % (x, u, n))
    print("Medians: ddp: " + ", ".join(out) + ".")
else:
    for n in sorted(per_n):
        v = per_n[n]
        print("%d|%d|%.0f|%.0f|%.0f" % (n, len(v), statistics.median(v), min(v), max(v)))
