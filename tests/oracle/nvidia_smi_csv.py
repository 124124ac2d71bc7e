#!/usr/bin/python3
"""nvidia_smi_csv.py WHAT LOG — an nvidia-smi CSV log read with Python's
csv module (not amdahl's reader):
  rows     the number of data rows (non-empty rows after the header)
  per-gpu  "GPU|ROWS" per GPU index, one a line, by index
  sums     the sums of power.draw, utilization.gpu, utilization.memory,
           memory.used and temperature.gpu (6 decimals) and the first and
           last timestamps in ms (read as UTC)
The log may start with a UTF-8 byte-order mark, repeat its header (a
shell loop's output: those rows are not samples) and give power in kW or
mW, memory in GiB or KiB (converted to W and MiB here)."""
import collections
import csv
import datetime
import sys

what, path = sys.argv[1:3]
TO_BASE = {"": 1, "%": 1, "W": 1, "kW": 1000, "mW": 0.001,
           "MiB": 1, "GiB": 1024, "KiB": 1 / 1024}


def read(path):
    rows = [r for r in csv.reader(open(path, encoding="utf-8-sig"), skipinitialspace=True) if r]
    return [rows[0]] + [r for r in rows[1:] if r != rows[0]]


def number(text):
    v, _, unit = text.partition(" ")
    return float(v) * TO_BASE[unit]

if what == "rows":
    print(len(read(path)) - 1)
elif what == "per-gpu":
    rows = read(path)
    i = rows[0].index("index")
    c = collections.Counter(int(r[i]) for r in rows[1:] if r)
    print("\n".join("%d|%d" % (g, c[g]) for g in sorted(c)))
elif what == "sums":
    rows = read(path)
    h = [x.split(" [")[0] for x in rows[0]]

    def col(n):
        return [number(r[h.index(n)]) for r in rows[1:]]

    ts = [round(datetime.datetime.strptime(r[0], "%Y/%m/%d %H:%M:%S.%f")
                .replace(tzinfo=datetime.timezone.utc).timestamp() * 1000) for r in rows[1:] if r]
    print("%.6f %.6f %.6f %.6f %.6f %d %d" % (
        sum(col("power.draw")), sum(col("utilization.gpu")), sum(col("utilization.memory")),
        sum(col("memory.used")), sum(col("temperature.gpu")), min(ts), max(ts)))
else:
    sys.exit("nvidia_smi_csv.py: unknown WHAT " + what)
