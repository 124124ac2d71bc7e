#!/usr/bin/python3
"""gpu_series.py WHAT ARG — nvidia-smi samples read without amdahl's code:
  csv LOG    the samples of an nvidia-smi CSV log (Python's csv module;
             units converted to %, W, MiB, C; [N/A] as None), one line
             "GPU|MS|UTIL|MEM_UTIL|POWER|MEM_USED|TEMP" each (values with
             repr, times read as UTC), grouped by GPU in log order
  store DB   the samples of a store's gpu_series rows (Python's sqlite3
             and struct decoding the blobs: n little-endian int64 times,
             then five float64 arrays, NaN for no value), same lines, by
             GPU then chunk then position
  check DB   "ok" when every row's n is its blob's length / 48 and t0_ms,
             t1_ms are its least and greatest time, else the first bad row"""
import csv
import datetime
import math
import sqlite3
import struct
import sys

TO_BASE = {"": 1, "%": 1, "W": 1, "kW": 1000, "mW": 0.001, "C": 1,
           "MiB": 1, "GiB": 1024, "KiB": 1 / 1024}
COLS = ("utilization.gpu", "utilization.memory", "power.draw", "memory.used", "temperature.gpu")


def value(text):
    if text in ("[N/A]", "N/A", "[Not Supported]"):
        return None
    v, _, unit = text.partition(" ")
    return float(v) * TO_BASE[unit]


def line(g, ms, vals):
    return "|".join([str(g), str(ms)] + [repr(v) for v in vals])


def from_csv(path):
    rows = [r for r in csv.reader(open(path, encoding="utf-8-sig"), skipinitialspace=True) if r]
    head = [h.split(" [")[0] for h in rows[0]]
    out = []
    for r in rows[1:]:
        if r == rows[0]:
            continue
        t = datetime.datetime.strptime(r[head.index("timestamp")], "%Y/%m/%d %H:%M:%S.%f")
        ms = round(t.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
        vals = [value(r[head.index(c)]) if c in head else None for c in COLS]
        out.append((int(r[head.index("index")]), ms, vals))
    out.sort(key=lambda s: s[0])  # stable: log order within a GPU
    return [line(*s) for s in out]


def blobs(path):
    db = sqlite3.connect(path)
    return db.execute("SELECT gpu, n, t0_ms, t1_ms, samples, chunk FROM gpu_series"
                      " ORDER BY source_id, gpu, chunk").fetchall()


def from_store(path):
    out = []
    for gpu, n, _, _, b, _ in blobs(path):
        k = len(b) // 48
        ts = struct.unpack("<%dq" % k, b[:8 * k])
        cols = [struct.unpack("<%dd" % k, b[8 * k * (i + 1):8 * k * (i + 2)]) for i in range(5)]
        for i in range(k):
            vals = [None if math.isnan(c[i]) else c[i] for c in cols]
            out.append(line(gpu, ts[i], vals))
    return out


def check(path):
    for gpu, n, t0, t1, b, chunk in blobs(path):
        k = len(b) // 48
        ts = struct.unpack("<%dq" % k, b[:8 * k])
        if len(b) % 48 or n != k or not ts or t0 != min(ts) or t1 != max(ts):
            return "bad row gpu %d chunk %d" % (gpu, chunk)
    return "ok"


what, arg = sys.argv[1:3]
if what == "csv":
    print("\n".join(from_csv(arg)))
elif what == "store":
    print("\n".join(from_store(arg)))
elif what == "check":
    print(check(arg))
else:
    sys.exit("gpu_series.py: unknown WHAT " + what)
