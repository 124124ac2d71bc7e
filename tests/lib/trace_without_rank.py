#!/usr/bin/python3
"""trace_without_rank.py TRACE.json.gz OUTDIR NAME… — writes the PyTorch
profiler trace without its distributedInfo (so no rank inside) as
OUTDIR/NAME for each NAME, each with its own traceName so that the files'
bytes differ (the store skips duplicates); for tests/e2e/trace.sh."""
import gzip
import json
import sys

d = json.load(gzip.open(sys.argv[1]))
del d["distributedInfo"]
for name in sys.argv[3:]:
    d["traceName"] = name
    json.dump(d, open(f"{sys.argv[2]}/{name}", "w"))
