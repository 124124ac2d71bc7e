#!/usr/bin/python3
"""nvsmi_nounits.py LOG OUT — writes the nvidia-smi CSV LOG as
--format=csv,nounits would, with only power.draw, timestamp, index and
utilization.gpu in that order, and power [N/A] on the 11th data row."""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
h = rows[0]
order = [h.index("power.draw [W]"), h.index("timestamp"), h.index("index"), h.index("utilization.gpu [%]")]
with open(sys.argv[2], "w") as f:
    f.write(", ".join(h[i] for i in order) + "\n")
    for n, r in enumerate(rows[1:]):
        vals = [r[i].split()[0] if i != h.index("timestamp") else r[i] for i in order]
        if n == 10:
            vals[0] = "[N/A]"
        f.write(", ".join(vals) + "\n")
