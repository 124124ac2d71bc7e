#!/usr/bin/python3
"""gen_hostile.py OUT KIND N — a valid but hostile MLflow experiment
("hostile", id 7) under OUT/mlruns/7, for timing every read command on
an input and its double (bench/hostile_reads.sh):

  runs N        N runs in one sweep (n = 1, 2, 4, 8 in turn)
  longname N    8 runs whose name, strategy and a param value are N bytes
  params N      8 runs with N params each
  strategies N  N runs, a strategy per 4 (n = 1..8 each)
  nan N         4 runs whose epoch_time_s and throughput are N NaN epochs
  metrics N     8 runs with N metrics each
  ctrl 1        control characters and invalid UTF-8 in names and params
  ws N          N runs of N distinct world sizes
  commits N     N runs of one configuration, param commit distinct each

Values are synthetic (seeded); written at bench time into /tmp, never
committed."""
import os, sys, math, random
out, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
exp = os.path.join(out, "mlruns", "7")
os.makedirs(exp, exist_ok=True)
open(os.path.join(exp, "meta.yaml"), "w").write(
    "artifact_location: 'file:///x/mlruns/7'\ncreation_time: 1700000000000\nexperiment_id: '7'\n"
    "last_update_time: 1700000000000\nlifecycle_stage: active\nname: hostile\n")
random.seed(1)
def run(i, name, ws, strategy, params=None, metrics=None, tags=None, meta_name=None):
    rid = "%032x" % (0xabc0000 + i)
    d = os.path.join(exp, rid)
    for s in ("metrics", "params", "tags"):
        os.makedirs(os.path.join(d, s), exist_ok=True)
    t0 = 1700000000000 + i * 100000
    p = {"world_size": str(ws), "num_gpus": str(ws), "strategy": strategy, "repeat": str(i % 3)}
    p.update(params or {})
    for k, v in p.items():
        open(os.path.join(d, "params", k), "wb").write(v.encode("utf-8", "surrogateescape"))
    tg = {"mlflow.runName": name}
    tg.update(tags or {})
    for k, v in tg.items():
        open(os.path.join(d, "tags", k), "wb").write(v.encode("utf-8", "surrogateescape") if isinstance(v, str) else v)
    ms = metrics or {"epoch_time_s": [(1.0 / ws) * (1 + 0.05 * random.random()) for _ in range(5)],
                     "throughput_samples_per_s": [1000.0 * ws * (1 + 0.05 * random.random()) for _ in range(5)]}
    end = t0
    for k, vals in ms.items():
        with open(os.path.join(d, "metrics", k), "w") as f:
            for j, v in enumerate(vals):
                f.write("%d %r %d\n" % (t0 + j * 1000, v, j))
                end = max(end, t0 + j * 1000)
    open(os.path.join(d, "meta.yaml"), "w").write(
        "artifact_uri: 'file:///x/mlruns/7/%s/artifacts'\nend_time: %d\nentry_point_name: ''\nexperiment_id: '7'\n"
        "lifecycle_stage: active\nrun_id: %s\nrun_name: %s\nrun_uuid: %s\nsource_name: ''\nsource_type: 4\n"
        "source_version: ''\nstart_time: %d\nstatus: 3\ntags: []\nuser_id: root\n" % (rid, end + 1000, rid, meta_name or "r%d" % i, rid, t0))
W = [1, 2, 4, 8]
if kind == "runs":          # N runs in one sweep
    for i in range(n): run(i, "ddp-n%d" % W[i % 4], W[i % 4], "ddp")
elif kind == "longname":    # run names, strategy, param value of N bytes
    for i in range(8): run(i, ("n%d-" % i) + "x" * n, W[i % 4], "s" * n, params={"p" * 200: "v" * n}, meta_name=("n%d-" % i) + "x" * n)
elif kind == "params":      # N distinct params per run, distinct per run too
    for i in range(8): run(i, "ddp-n%d" % W[i % 4], W[i % 4], "ddp", params={"param_%d_%d" % (i % 2, k): str(k + i) for k in range(n)})
elif kind == "strategies":  # N distinct strategies
    for i in range(n): run(i, "s%d-n%d" % (i // 4, W[i % 4]), W[i % 4], "strat_%d" % (i // 4))
elif kind == "nan":         # a metric with N epochs all NaN
    for i in range(4): run(i, "ddp-n%d" % W[i], W[i], "ddp", metrics={"epoch_time_s": [float("nan")] * n, "throughput_samples_per_s": [float("nan")] * n})
elif kind == "metrics":     # N distinct metrics per run
    for i in range(8): run(i, "ddp-n%d" % W[i % 4], W[i % 4], "ddp", metrics={"m_%d" % k: [1.0 + k, 2.0] for k in range(n)} | {"epoch_time_s": [1.0 / W[i % 4]] * 3})
elif kind == "ctrl":        # control characters / invalid utf-8 in run name, strategy
    for i in range(4): run(i, "bad\x1b[31m\r\n\t\x07\udcff\udcfe-n%d" % W[i], W[i], "d\x01p\udcc3", params={"k\x02": "v\x7f\n"})
elif kind == "ws":          # N distinct world sizes
    for i in range(n): run(i, "ddp-n%d" % (i + 1), i + 1, "ddp")
if kind == "commits":       # N runs, one per commit, same configuration
    for i in range(n): run(i, "ddp-n1", 1, "ddp", params={"commit": "c%06d" % i}, metrics={"epoch_time_s": [1.0 + (0.1 if i > n // 2 else 0) + 0.01 * random.random() for _ in range(4)]})
