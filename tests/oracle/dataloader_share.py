#!/usr/bin/python3
"""dataloader_share.py EXPERIMENT_DIR — the data-loading share of a
training step, recomputed from the MLflow files of dataloader-workers:
per run the median of each phase's logged step times (data, forward,
backward, optimizer), per num_workers the median over its runs, the share
data / sum. Prints the report's finding sentence for the highest and the
lowest share."""
import os
import statistics
import sys

root = sys.argv[1]
groups = {}
for run in os.listdir(root):
    d = os.path.join(root, run)
    if not os.path.isdir(d):
        continue
    w = float(open(os.path.join(d, "params", "num_workers")).read().strip())
    ph = {}
    for p in ("data", "forward", "backward", "optimizer"):
        f = os.path.join(d, "metrics", "profile", "train", "dl_main", "time_%s_ms" % p)
        ph[p] = statistics.median(float(l.split()[1]) for l in open(f) if l.strip())
    groups.setdefault(w, []).append(ph)
share = {}
for w, runs in groups.items():
    m = {p: statistics.median(r[p] for r in runs) for p in runs[0]}
    share[w] = m["data"] / sum(m.values())
hi = max(share, key=share.get)
lo = min(share, key=share.get)
print("Loader main: data loading takes %.0f%% of a training step at num_workers = %g "
      "(single-gpu), against %.0f%% at num_workers = %g." % (share[hi] * 100, hi, share[lo] * 100, lo))
