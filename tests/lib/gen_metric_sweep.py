#!/usr/bin/python3
"""gen_metric_sweep.py OUT RUNS EPOCHS [SEED] — an MLflow file store (OUT/mlruns)
holding one sweep, "gen-sweep", of RUNS runs (with 20: ddp at world sizes 1, 2,
4, 8, four runs each, and fsdp at each once) of EPOCHS epochs each, whose metrics put the
per-run reductions (counts, sums, medians, MAD, exclusions) through their
edge cases: epoch_time_s and throughput_samples_per_s, train_loss, m0
(values rounded so ties happen, odd and even counts, a NaN, a negative,
an infinity, a step logged twice), max_memory_allocated_mb on some runs
and 8 filler metrics f1..f8 no statistic reads. Seeded: the same
arguments give the same bytes. tests/e2e/clickhouse.sh compares `stats`
on ClickHouse with SQLite's on it."""
import math
import os
import random
import sys

out, runs, epochs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 64)
exp = os.path.join(out, "mlruns", "7")
os.makedirs(exp, exist_ok=True)
with open(os.path.join(exp, "meta.yaml"), "w") as f:
    f.write("artifact_location: 'file:///x/mlruns/7'\ncreation_time: 1795000000000\n"
            "experiment_id: '7'\nlast_update_time: 1795000000000\n"
            "lifecycle_stage: active\nname: gen-sweep\n")


def fmt(v):
    return repr(float(v)) if math.isfinite(v) else ("NaN" if math.isnan(v) else
                                                    ("Infinity" if v > 0 else "-Infinity"))


t = 1795000000000
for r in range(runs):
    strategy = "ddp" if r < 16 else "fsdp"  # 4 ddp runs per n (intervals), 1 fsdp
    n = (1, 2, 4, 8)[r % 4]
    rid = "%032x" % rng.getrandbits(128)
    d = os.path.join(exp, rid)
    for sub in ("params", "metrics", "tags"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    params = {"world_size": n, "num_gpus": n, "num_nodes": 1, "strategy": strategy,
              "global_batch_size": 256, "steps_per_epoch": 10 + r % 3, "repeat": r // 4}
    for k, v in params.items():
        with open(os.path.join(d, "params", k), "w") as f:
            f.write(str(v))
    with open(os.path.join(d, "tags", "mlflow.runName"), "w") as f:
        f.write("%s-n%d-r%d" % (strategy, n, r))
    start = t
    series = {k: [] for k in ["epoch_time_s", "throughput_samples_per_s", "train_loss", "m0"]
              + ["f%d" % i for i in range(1, 9)]}
    if r % 3 == 0:
        series["max_memory_allocated_mb"] = []
    count = epochs - (r % 2)  # odd and even counts
    base = 2.0 / n ** 0.8 * (1.1 if strategy == "fsdp" else 1.0)
    for e in range(count):
        et = round(base * (1 + rng.gauss(0, 0.05)), 3)  # rounded: ties
        if e == 0:
            et *= 3  # warm-up
        if r == 3 and e == 5:
            et = float("nan")
        if r == 4 and e == 7:
            et = -et
        if r == 6 and e == 9:
            et *= 9  # an outlier MAD flags
        t += max(1, int(abs(et) * 1000)) if math.isfinite(et) else 1000
        series["epoch_time_s"].append((t, et, e))
        tp = 256 * (10 + r % 3) / et if math.isfinite(et) and et > 0 else float("nan")
        if r == 5 and e == 11:
            tp = float("inf")
        series["throughput_samples_per_s"].append((t, tp, e))
        series["train_loss"].append((t, round(4.6 - 0.01 * e + rng.random() * 0.01, 4), e))
        m0 = round(rng.lognormvariate(0, 0.3), 2)
        series["m0"].append((t, m0, e))
        if r == 8 and e == 12:
            series["m0"].append((t + 1, m0 * 2, e))  # a step logged twice
        for i in range(1, 9):
            series["f%d" % i].append((t, rng.random(), e))
        if "max_memory_allocated_mb" in series:
            series["max_memory_allocated_mb"].append((t, 1000 + rng.randrange(500), e))
    for k, pts in series.items():
        with open(os.path.join(d, "metrics", k), "w") as f:
            for ts, v, step in pts:
                f.write("%d %s %d\n" % (ts, fmt(v), step))
    with open(os.path.join(d, "meta.yaml"), "w") as f:
        f.write("artifact_uri: 'file:///x/mlruns/7/%s/artifacts'\nend_time: %d\n"
                "entry_point_name: ''\nexperiment_id: '7'\nlifecycle_stage: active\n"
                "run_id: %s\nrun_name: %s-n%d-r%d\nrun_uuid: %s\nsource_name: ''\n"
                "source_type: 4\nsource_version: ''\nstart_time: %d\nstatus: 3\ntags: []\n"
                "user_id: root\n" % (rid, t, rid, strategy, n, r, rid, start))
    t += 5000
