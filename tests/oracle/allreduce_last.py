#!/usr/bin/python3
"""allreduce_last.py — independent answer to "which rank starts each
all-reduce last" over PyTorch/Kineto traces, read with Python's json.

For every trace given: its rank (distributedInfo.rank), the GPU kernels
(cat "kernel") whose name starts with PREFIX, in start order; the n-th
such kernel of every rank is the n-th all-reduce. Prints, per n, the
rank whose n-th kernel starts last and that start in ns (ts in us plus
baseTimeNanoseconds), tab-separated under the header "seq rank
last_start" - what `amdahl sql` prints for the same question.

usage: allreduce_last.py PREFIX TRACE...
"""
import gzip
import json
import sys
from decimal import Decimal


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=Decimal)


def main():
    prefix, paths = sys.argv[1], sys.argv[2:]
    starts = {}  # rank -> [start ns of the n-th matching kernel]
    for path in paths:
        doc = load(path)
        rank = int(doc["distributedInfo"]["rank"])
        base = int(doc.get("baseTimeNanoseconds", 0))
        ks = sorted(int(Decimal(e["ts"]) * 1000) + base for e in doc["traceEvents"]
                    if e.get("ph") == "X" and e.get("cat") == "kernel"
                    and e.get("name", "").startswith(prefix))
        starts[rank] = ks
    print("seq\trank\tlast_start")
    n = max(len(v) for v in starts.values())
    for i in range(n):
        cand = [(v[i], r) for r, v in starts.items() if len(v) > i]
        last = max(s for s, _ in cand)
        ranks = sorted(r for s, r in cand if s == last)
        if len(ranks) > 1:
            sys.exit("all-reduce %d: ranks %s tie for last; the question has no one answer" % (i, ranks))
        print("%d\t%d\t%d" % (i, ranks[0], last))


if __name__ == "__main__":
    main()
