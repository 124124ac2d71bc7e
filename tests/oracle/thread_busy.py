#!/usr/bin/python3
"""thread_busy.py FILE — the busy time of a PyTorch profiler trace's CPU
threads: per (pid, tid), the length of the union of its host events'
intervals (every category but the device ones, GPU annotations, flows and
the Trace span), summed over threads, in ns. The self times of the host
ops can never add up to more (json + interval union, no amdahl code)."""
import gzip
import json
import sys
from collections import defaultdict
from decimal import Decimal

NOT_HOST = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset",
            "gpu_user_annotation", "ac2g", "trace"}


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value())


path = sys.argv[1]
doc = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
events = doc["traceEvents"] if isinstance(doc, dict) else doc
threads = defaultdict(list)
for e in events:
    if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e and \
            (e.get("cat") or "").lower() not in NOT_HOST:
        s = ns(e["ts"])
        threads[(str(e.get("pid")), str(e.get("tid")))].append((s, s + max(ns(e.get("dur", 0)), 0)))
busy = 0
for iv in threads.values():
    iv.sort()
    lo, hi = iv[0]
    for s, t in iv[1:]:
        if s > hi:
            busy += hi - lo
            lo, hi = s, t
        else:
            hi = max(hi, t)
    busy += hi - lo
print(busy)
