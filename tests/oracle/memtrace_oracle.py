#!/usr/bin/python3
"""memtrace_oracle.py TRACE — the [memory] instant events of a PyTorch
profiler trace (profile_memory=True) read with Python's json (not
amdahl's streaming reader): per device "TYPE|ID|FROM_TOTALS|PEAK_ALLOCATED|
PEAK_RESERVED|EVENTS", by type and id. The allocated figure is the
event's "Total Allocated" when the trace has it, else the running sum of
"Bytes" from the trace's start; reserved is -1 when never given."""
import gzip
import json
import sys

path = sys.argv[1]
opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
trace = json.load(opener(path, "rt"))
dev = {}
for e in trace["traceEvents"]:
    if e.get("ph") != "i" or e.get("name") != "[memory]" or "ts" not in e:
        continue
    a = e.get("args", {})
    key = (a.get("Device Type", 0), a.get("Device Id", -1))
    d = dev.setdefault(key, {"run": 0, "totals": 1, "peak": None, "res": -1, "n": 0})
    d["run"] += a.get("Bytes", 0)
    if "Total Allocated" in a:
        alloc = a["Total Allocated"]
    else:
        d["totals"] = 0
        alloc = d["run"]
    d["peak"] = alloc if d["peak"] is None else max(d["peak"], alloc)
    d["res"] = max(d["res"], a.get("Total Reserved", -1))
    d["n"] += 1
for (t, i), d in sorted(dev.items()):
    print("%d|%d|%d|%d|%d|%d" % (t, i, d["totals"], d["peak"], d["res"], d["n"]))
