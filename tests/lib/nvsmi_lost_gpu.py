#!/usr/bin/python3
"""nvsmi_lost_gpu.py OUT — writes an `nvidia-smi --query-gpu=timestamp,
index,utilization.gpu,power.draw,memory.used,temperature.gpu
--format=csv -l 1` log of two GPUs where GPU 1 falls off the bus half
way: from then on its cells are NVML's error strings in brackets, as
nvidia-smi prints them ("[GPU is lost]", then "[GPU requires reset]"),
and GPU 0's temperature "[Unknown Error]" once. Prints the oracle, a line
"GPU|ROWS|POWER VALUES|TEMPERATURE VALUES|POWER SUM" per GPU, as
Python's csv module reads the log (a bracketed cell: no value)."""
import collections
import csv
import sys

head = ["timestamp", "index", "utilization.gpu [%]", "power.draw [W]", "memory.used [MiB]",
        "temperature.gpu"]
rows = []
for t in range(12):
    for g in (0, 1):
        cells = ["2026/11/22 11:40:%02d.%03d" % (t, 17 * t + g), str(g), "%d %%" % (40 + t),
                 "%.2f W" % (70.25 + 3.5 * t + g), "%d MiB" % (1024 * t), str(35 + t)]
        if g == 1 and t >= 6:
            lost = "[GPU is lost]" if t < 9 else "[GPU requires reset]"
            cells[2:] = [lost] * 4
        if g == 0 and t == 4:
            cells[5] = "[Unknown Error]"
        rows.append(cells)
with open(sys.argv[1], "w", newline="") as f:
    f.write(", ".join(head) + "\n" + "".join(", ".join(r) + "\n" for r in rows))
acc = collections.defaultdict(lambda: [0, 0, 0, 0.0])
for r in csv.reader(open(sys.argv[1]), skipinitialspace=True):
    if r[0] == "timestamp":
        continue
    a = acc[int(r[1])]
    a[0] += 1
    if not r[3].startswith("["):
        a[1] += 1
        a[3] += float(r[3].split()[0])
    a[2] += not r[5].startswith("[")
for g in sorted(acc):
    print("%d|%d|%d|%d|%.3f" % (g, *acc[g]))
