#!/usr/bin/python3
"""report_gate_equals_compare.py REPORT.json COMPARE.json — prints "equal"
when report.json's "gate" object has the rows, summary and baseline and
candidate sweeps of `amdahl compare --json` (and there is at least one
row), else "differ: G vs C rows"."""
import json
import sys

g = json.load(open(sys.argv[1]))["gate"]
c = json.load(open(sys.argv[2]))
ok = g["rows"] == c["rows"] and g["summary"] == c["summary"] and len(c["rows"]) > 0
ok = ok and g["baseline"]["sweep"] == c["baseline"]["sweep"] and g["candidate"]["sweep"] == c["candidate"]["sweep"]
print("equal" if ok else "differ: %d vs %d rows" % (len(g["rows"]), len(c["rows"])))
