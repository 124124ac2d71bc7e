#!/usr/bin/env python3
"""wrap_traces.py — one MLflow run (file layout) around loose per-rank
profiler traces, so that `amdahl explain` can read a public multi-rank
trace set that came without its run (e.g. ../shared/data/public/traces/
param-dlrm-8ranks): the run's world size is the number of traces.

usage: wrap_traces.py TRACE_DIR OUT [--strategy S] [--sweep NAME]"""
import argparse
import glob
import os
import shutil

import gen_sweep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("traces")
    ap.add_argument("out")
    ap.add_argument("--strategy", default="ddp")
    ap.add_argument("--sweep", default="public-traces")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.traces, "*.json*")))
    root = os.path.join(a.out, "mlruns")
    os.makedirs(os.path.join(root, "9"), exist_ok=True)
    with open(os.path.join(root, "9", "meta.yaml"), "w") as f:
        f.write("artifact_location: 'file://%s/9'\ncreation_time: 1694128000000\n"
                "experiment_id: '9'\nlast_update_time: 1694128000000\n"
                "lifecycle_stage: active\nname: %s\n" % (root, a.sweep))
    tdir = gen_sweep.write_run(root, "9", "%032x" % len(files), len(files), 0, a.strategy, 0.1,
                               1694128000000)
    for f in files:
        shutil.copy(f, tdir)


if __name__ == "__main__":
    main()
