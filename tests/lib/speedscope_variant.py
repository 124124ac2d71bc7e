#!/usr/bin/python3
"""speedscope_variant.py KIND SRC DST — writes a variant of the speedscope
file SRC to DST for the py-spy tests:
  bad-frame  profiles[1].samples[5][2] set one past the last shared frame
  unit-none  every profile's unit "none" and weight 1 per sample, as older
             py-spy wrote them"""
import json
import sys

kind, src, dst = sys.argv[1:4]
d = json.load(open(src))
if kind == "bad-frame":
    d["profiles"][1]["samples"][5][2] = len(d["shared"]["frames"])
elif kind == "unit-none":
    for p in d["profiles"]:
        p["unit"] = "none"
        p["weights"] = [1 for _ in p["weights"]]
else:
    sys.exit("speedscope_variant.py: unknown KIND " + kind)
json.dump(d, open(dst, "w"))
