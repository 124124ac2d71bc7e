#!/usr/bin/python3
"""mlflow_groups.py MLRUNS... — which runs of MLflow file stores are
repeats of each other, computed independently (plain file reading, no
amdahl code): a run's name is meta.yaml's run_name (MLflow 2.x/3.x) or
name (1.x), else its tag mlflow.runName; runs of one experiment with the
same name are repeats. A run without a name is grouped with the runs of
its experiment that share its tag mlflow.project.entryPoint, its tag
mlflow.source.name and all its params; with none of the three it is a
group of its own. Within a group, repeats are numbered 0, 1, ... by
start_time, then run id. Deleted runs (lifecycle_stage: deleted) are
skipped. Prints "RUN_ID REPEAT GROUPING" per run, sorted by run id, where
GROUPING is named, grouped or ungrouped."""
import collections
import glob
import os
import sys


def meta(path):
    kv = {}
    for line in open(path).read().splitlines():
        if ": " in line and not line.startswith(" "):
            k, v = line.split(": ", 1)
            kv[k] = v.strip().strip("'")
    return kv


def files(d):
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            out[os.path.relpath(p, d)] = open(p).read()
    return out


groups = collections.defaultdict(list)
kind = {}
for tree in sys.argv[1:]:
    for m in glob.glob(os.path.join(tree, "*", "*", "meta.yaml")):
        d = os.path.dirname(m)
        kv = meta(m)
        if kv.get("lifecycle_stage") == "deleted":
            continue
        run = kv.get("run_id") or kv["run_uuid"]
        exp = os.path.dirname(d)
        tags, params = files(os.path.join(d, "tags")), files(os.path.join(d, "params"))
        name = kv.get("run_name") or kv.get("name") or tags.get("mlflow.runName")
        entry = tags.get("mlflow.project.entryPoint")
        src = tags.get("mlflow.source.name")
        if name:
            key, kind[run] = ("name", name), "named"
        elif entry or src or params:
            key, kind[run] = ("group", entry, src, tuple(sorted(params.items()))), "grouped"
        else:
            key, kind[run] = ("alone", run), "ungrouped"
        groups[(exp, key)].append((int(kv.get("start_time") or 0), run))
repeat = {}
for members in groups.values():
    for i, (_, run) in enumerate(sorted(members)):
        repeat[run] = i
for run in sorted(repeat):
    print(run, repeat[run], kind[run])
