#!/usr/bin/python3
"""nvsmi_variants.py KIND LOG OUT — writes the nvidia-smi CSV LOG (the
`-l` form: one header, then samples) in a form users really have:
  loop    what a shell loop appending `nvidia-smi --query-gpu=…
          --format=csv` every second gives: the header before every
          sample time (each GPU's rows of one timestamp)
  bom     the log with a UTF-8 byte-order mark before the header
  units   power.draw in kW and memory.used in GiB (values and header)
  badunit power.draw of the 7th data row in kJ
  notime  the log without its timestamp column (a loop that did not ask
          for it)
  noheader the log as --format=csv,noheader writes it: no header line"""
import csv
import sys

kind, src, dst = sys.argv[1:4]
rows = list(csv.reader(open(src), skipinitialspace=True))
head, data = rows[0], [r for r in rows[1:] if r]
P, M = head.index("power.draw [W]"), head.index("memory.used [MiB]")


def line(r):
    return ", ".join(r) + "\n"


with open(dst, "w", encoding="utf-8") as f:
    if kind == "loop":
        ts = head.index("timestamp")
        prev = None
        for r in data:
            if r[ts] != prev:
                f.write(line(head))
                prev = r[ts]
            f.write(line(r))
    elif kind == "bom":
        f.write("\ufeff" + line(head) + "".join(line(r) for r in data))
    elif kind in ("units", "badunit"):
        h = list(head)
        if kind == "units":
            h[P], h[M] = "power.draw [kW]", "memory.used [GiB]"
        f.write(line(h))
        for n, r in enumerate(data):
            r = list(r)
            if kind == "units":
                r[P] = "%.6g kW" % (float(r[P].split()[0]) / 1000)
                r[M] = "%.6g GiB" % (float(r[M].split()[0]) / 1024)
            elif n == 6:
                r[P] = r[P].replace(" W", " kJ")
            f.write(line(r))
    elif kind == "notime":
        ts = head.index("timestamp")
        f.write("".join(line(r[:ts] + r[ts + 1:]) for r in [head] + data))
    elif kind == "noheader":
        f.write("".join(line(r) for r in data))
    else:
        sys.exit("nvsmi_variants.py: unknown KIND " + kind)
