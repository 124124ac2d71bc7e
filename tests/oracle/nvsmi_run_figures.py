#!/usr/bin/python3
"""nvsmi_run_figures.py MLRUNS LOG — one nvidia-smi log for a whole sweep,
attributed to runs by time, computed independently (csv, yaml-free
meta.yaml reading, no amdahl code): for each run directory under MLRUNS
(start_time..end_time of its meta.yaml, in ms, both ends included) the
samples of LOG in that window (times read as UTC); energy = per GPU the
trapezoid sum of power over time (J), summed over GPUs; power and
utilisation = means over all the window's samples. A run whose
params/CUDA_VISIBLE_DEVICES lists GPU indexes takes only those GPUs'. Prints
"RUN_ID ENERGY_J POWER_W UTIL_PCT" per run (%.6f), by run id."""
import collections
import csv
import datetime
import glob
import os
import sys

mlruns, log = sys.argv[1:3]
rows = list(csv.reader(open(log), skipinitialspace=True))
head = [h.split(" [")[0] for h in rows[0]]
col = {k: head.index(k) for k in ("timestamp", "index", "power.draw", "utilization.gpu")}
samples = []
for r in rows[1:]:
    if not r:
        continue
    t = datetime.datetime.strptime(r[col["timestamp"]], "%Y/%m/%d %H:%M:%S.%f")
    ms = round(t.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    samples.append((int(r[col["index"]]), ms, float(r[col["power.draw"]].split()[0]),
                    float(r[col["utilization.gpu"]].split()[0])))
for meta in sorted(glob.glob(os.path.join(mlruns, "*", "*", "meta.yaml"))):
    kv = dict(line.split(": ", 1) for line in open(meta).read().splitlines() if ": " in line)
    if "start_time" not in kv or "end_time" not in kv or kv["end_time"] in ("null", ""):
        continue
    t0, t1 = int(kv["start_time"]), int(kv["end_time"])
    win = [s for s in samples if t0 <= s[1] <= t1]
    dev_file = os.path.join(os.path.dirname(meta), "params", "CUDA_VISIBLE_DEVICES")
    if os.path.exists(dev_file):
        devs = "".join(open(dev_file).read().split()).split(",")
        if all(d.isdigit() for d in devs):
            win = [s for s in win if s[0] in {int(d) for d in devs}]
    if not win:
        continue
    per_gpu = collections.defaultdict(list)
    for g, ms, p, u in win:
        per_gpu[g].append((ms, p))
    energy = 0.0
    for pts in per_gpu.values():
        pts.sort()
        energy += sum((b[0] - a[0]) / 1000 * (a[1] + b[1]) / 2 for a, b in zip(pts, pts[1:]))
    print("%s %.6f %.6f %.6f" % (kv["run_id"].strip(), energy, sum(s[2] for s in win) / len(win),
                                 sum(s[3] for s in win) / len(win)))
