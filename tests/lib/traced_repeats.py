#!/usr/bin/python3
"""traced_repeats.py — gives more repeats of a configuration profiler
traces, as issue 19's sweep-scale generator does: every trace of
repeat 0 of STRATEGY at world size N is copied into the run of each
REPEAT given, with every event's duration and its offset from the
trace's first event multiplied by FACTOR (so nesting holds and every
region's time scales by FACTOR), then moved to that run's start.

usage: traced_repeats.py MLRUNS STRATEGY N REPEAT=FACTOR...
"""
import gzip
import json
import os
import sys
from decimal import Decimal


def param(run, key):
    p = os.path.join(run, "params", key)
    return open(p).read().strip() if os.path.exists(p) else None


def start_ms(run):
    for line in open(os.path.join(run, "meta.yaml")):
        if line.startswith("start_time:"):
            return int(line.split(":")[1])
    raise SystemExit(f"{run}: no start_time")


def runs(root, strategy, n):
    """{repeat: run dir} of the configuration's finished runs."""
    out = {}
    for exp in sorted(os.listdir(root)):
        ed = os.path.join(root, exp)
        for r in sorted(os.listdir(ed)) if os.path.isdir(ed) else []:
            d = os.path.join(ed, r)
            if (param(d, "strategy") == strategy and param(d, "world_size") == str(n)
                    and "status: 3" in open(os.path.join(d, "meta.yaml")).read()):
                out.setdefault(int(param(d, "repeat")), d)
    return out


def scaled(path, factor, shift_us):
    op = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    doc = json.load(op(path, "rt"), parse_float=Decimal)
    ev = [e for e in doc["traceEvents"] if isinstance(e, dict) and "ts" in e]
    t0 = min(Decimal(e["ts"]) for e in ev)
    f = Decimal(factor)
    for e in ev:
        e["ts"] = t0 + (Decimal(e["ts"]) - t0) * f + shift_us
        if "dur" in e:
            e["dur"] = Decimal(e["dur"]) * f
    return json.dumps(doc, default=lambda d: float(d) if d % 1 else int(d))


def main():
    root, strategy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rs = runs(root, strategy, n)
    src = os.path.join(rs[0], "artifacts", "traces")
    for spec in sys.argv[4:]:
        rep, factor = spec.split("=")
        dst = os.path.join(rs[int(rep)], "artifacts", "traces")
        os.makedirs(dst, exist_ok=True)
        shift = Decimal(start_ms(rs[int(rep)]) - start_ms(rs[0])) * 1000
        for t in sorted(os.listdir(src)):
            name = t[:-3] if t.endswith(".gz") else t
            with open(os.path.join(dst, name), "w") as out:
                out.write(scaled(os.path.join(src, t), factor, shift))


if __name__ == "__main__":
    main()
