#!/usr/bin/python3
# record.py — writes the MLPerf log beside it: a real (tiny) training run
# on CPU with numpy (a two-layer softmax
# classifier trained by SGD; Debian 12's python3-torch is not on this
# machine), logged in mlperf_logging's format
# (`:::MLLOG {json}`, one object per line, as mllog.get_mllogger() prints
# it) with the NVIDIA launcher's `:::SYSJSON` system description and a
# rank prefix on every line ("0: "), the way the raw result logs of
# MLCommons submissions look. Usage: record.py OUT NODES ACCEL SEED
import json, sys, time
import numpy as np

out, nodes, accel, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = []

def log(key, value=None, kind="POINT_IN_TIME", **meta):
    meta.update({"file": "record.py", "lineno": 0})
    lines.append("0: :::MLLOG " + json.dumps({"namespace": "", "time_ms": int(time.time() * 1000),
                 "event_type": kind, "key": key, "value": value, "metadata": meta}))

print_sys = {"submitter": "amdahl", "division": "open", "system_name": "cpu",
             "number_of_nodes": nodes, "accelerators_per_node": accel,
             "accelerator_model_name": "CPU"}
lines.append("+ echo ':::SYSJSON " + json.dumps(print_sys) + "'")
lines.append(":::SYSJSON " + json.dumps(print_sys))
rng = np.random.default_rng(seed)
log("init_start", kind="INTERVAL_START")
log("submission_benchmark", "tiny_mlp")
log("submission_platform", nodes + "xcpu")
log("seed", seed)
gbs = 64
log("global_batch_size", gbs)
w1, w2 = rng.normal(0, 0.05, (256, 512)), rng.normal(0, 0.05, (512, 10))
x, y = rng.normal(size=(2048, 256)), rng.integers(0, 10, 2048)
x[np.arange(2048), y] += 2.0  # a learnable signal

def forward(xb):
    h = np.maximum(xb @ w1, 0)
    z = h @ w2
    p = np.exp(z - z.max(1, keepdims=True))
    return h, p / p.sum(1, keepdims=True)
log("init_stop", kind="INTERVAL_END")
log("run_start", kind="INTERVAL_START")
samples = 0
for block in range(4):
    log("block_start", kind="INTERVAL_START", samples_count=samples)
    for i in range(0, 2048, gbs):
        xb, yb = x[i:i + gbs], y[i:i + gbs]
        h, p = forward(xb)
        loss = -np.log(p[np.arange(len(yb)), yb]).mean()
        g = p.copy()
        g[np.arange(len(yb)), yb] -= 1
        g /= len(yb)
        gh = (g @ w2.T) * (h > 0)
        w2 -= 0.05 * h.T @ g
        w1 -= 0.05 * xb.T @ gh
        samples += gbs
    log("tracked_stats", {"train_loss": float(loss)}, step=samples)
    log("block_stop", kind="INTERVAL_END", samples_count=samples)
    log("eval_start", kind="INTERVAL_START", samples_count=samples)
    acc = float((forward(x)[1].argmax(1) == y).mean())
    log("eval_accuracy", acc, samples_count=samples)
    log("eval_stop", kind="INTERVAL_END", samples_count=samples)
log("run_stop", acc, kind="INTERVAL_END", samples_count=samples, status="success")
open(out, "w").write("\n".join(lines) + "\n")
