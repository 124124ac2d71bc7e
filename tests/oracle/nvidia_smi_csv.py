#!/usr/bin/python3
"""nvidia_smi_csv.py WHAT LOG — an nvidia-smi CSV log read with Python's
csv module (not amdahl's reader):
  rows     the number of data rows (non-empty rows after the header)
  per-gpu  "GPU|ROWS" per GPU index, one a line, by index
  sums     the sums of power.draw, utilization.gpu, utilization.memory,
           memory.used and temperature.gpu (6 decimals) and the first and
           last timestamps in ms (read as UTC)"""
import collections
import csv
import datetime
import sys

what, path = sys.argv[1:3]
if what == "rows":
    print(sum(1 for r in list(csv.reader(open(path)))[1:] if r))
elif what == "per-gpu":
    rows = list(csv.reader(open(path), skipinitialspace=True))
    i = rows[0].index("index")
    c = collections.Counter(int(r[i]) for r in rows[1:] if r)
    print("\n".join("%d|%d" % (g, c[g]) for g in sorted(c)))
elif what == "sums":
    rows = list(csv.reader(open(path), skipinitialspace=True))
    h = [x.split(" [")[0] for x in rows[0]]

    def col(n):
        return [float(r[h.index(n)].split()[0]) for r in rows[1:] if r]

    ts = [round(datetime.datetime.strptime(r[0], "%Y/%m/%d %H:%M:%S.%f")
                .replace(tzinfo=datetime.timezone.utc).timestamp() * 1000) for r in rows[1:] if r]
    print("%.6f %.6f %.6f %.6f %.6f %d %d" % (
        sum(col("power.draw")), sum(col("utilization.gpu")), sum(col("utilization.memory")),
        sum(col("memory.used")), sum(col("temperature.gpu")), min(ts), max(ts)))
else:
    sys.exit("nvidia_smi_csv.py: unknown WHAT " + what)
