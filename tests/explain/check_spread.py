#!/usr/bin/env python3
"""check_spread.py — stats' "straggler ms" (`stats --json`'s
straggler_ns) against gen_sweep.py's truth.json: per n above 1 the mean
over its runs of the true mean spread of arrivals at an all-reduce (the
last arrival minus the first), to 1 ns. Prints "1:None 2:ok 4:ok 8:ok"
(what stats gave at n = 1, then ok or the mismatch per n); exit 1 on a
mismatch.

usage: check_spread.py TRUTH.json STATS.json"""
import json
import sys


def main():
    truth = json.load(open(sys.argv[1]))["runs"]
    pts = json.load(open(sys.argv[2]))["sweeps"][0]["strategies"][0]["points"]
    out, bad = [], 0
    for p in pts:
        if p["n"] == 1:
            out.append("1:%s" % p["straggler_ns"])
            continue
        rs = [r["arrival_spread"] for r in truth if r["n"] == p["n"]]
        want = sum(rs) / len(rs) * 1e9
        ok = p["straggler_ns"] is not None and abs(p["straggler_ns"] - want) <= 1
        bad += not ok
        out.append("%d:%s" % (p["n"], "ok" if ok else "%r!=%r" % (p["straggler_ns"], want)))
    print(" ".join(out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
