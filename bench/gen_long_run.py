#!/usr/bin/python3
"""gen_long_run.py SRC_EXPERIMENT DEST_MLRUNS N [RUN_ID...] — long MLflow
runs made from real ones.

Copies the real MLflow experiment directory SRC_EXPERIMENT (its meta.yaml
and every run) into DEST_MLRUNS/<experiment id>/; each run named (every
run when none is) gets each of its metric files rewritten with N points:
the real file's values and time gaps repeated in order, steps 0..N-1,
from the real first timestamp; its end_time moves past the last point.
Used by bench/metrics.sh (an input and its double) and by the stats test
on a long run (tests/e2e/stats_long_run.sh)."""
import os
import shutil
import sys


def read_points(path):
    pts = []
    with open(path) as f:
        for line in f:
            fs = line.split()
            if len(fs) >= 2:
                pts.append((int(fs[0]), fs[1]))
    return pts


def write_series(pts, n, path):
    """Writes the series; returns its last timestamp."""
    gaps = [max(1, pts[i + 1][0] - pts[i][0]) for i in range(len(pts) - 1)] or [1000]
    ts = pts[0][0]
    with open(path, "w") as f:
        for i in range(n):
            if i:
                ts += gaps[(i - 1) % len(gaps)]
            f.write("%d %s %d\n" % (ts, pts[i % len(pts)][1], i))
    return ts


def lengthen(run_dir, n):
    mdir = os.path.join(run_dir, "metrics")
    last = 0
    for name in sorted(os.listdir(mdir)):
        path = os.path.join(mdir, name)
        pts = read_points(path) if os.path.isfile(path) else []
        if pts:
            last = max(last, write_series(pts, n, path))
    meta = os.path.join(run_dir, "meta.yaml")
    with open(meta) as f:
        lines = f.readlines()
    with open(meta, "w") as f:
        for line in lines:
            if line.startswith("end_time:"):
                line = "end_time: %d\n" % (last + 1000)
            f.write(line)


def main():
    src, dest, n = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3])
    out = os.path.join(dest, os.path.basename(src))
    shutil.copytree(src, out)
    runs = sys.argv[4:] or [d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d, "metrics"))]
    for run in runs:
        lengthen(os.path.join(out, run), n)


if __name__ == "__main__":
    main()
