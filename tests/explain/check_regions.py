#!/usr/bin/env python3
"""check_regions.py — compute_growth per region of `amdahl explain
--json` against gen_sweep.py --serial-op's truth.json: per n above the
base n0, each compute op's growth by design, (n·f(n) − n0·f(n0)) / R with
f the op's noise-free per-rank time per step (truth's region_models) and
R the runs' mean rank-time at n, against the share explain names from
the region models: within 20% (or 0.5 points when under 2.5 points); an
op explain leaves out counts 0. (The generator's noise moves a run's
own op times by about 0.3 points at n = 2: the models, fitted over every
n, are compared with the design, not with one draw.) Prints
"first=<largest region per n> ok" or what failed; exit 1 on a failure.

usage: check_regions.py TRUTH.json EXPLAIN.json"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    truth, models = doc["runs"], doc["region_models"]
    pts = json.load(open(sys.argv[2]))["strategies"][0]["points"]
    n0 = min(r["n"] for r in truth)

    def f(k, n):
        return models[k]["inv"] / n + models[k]["const"]
    bad, first = [], []
    for p in pts:
        n = p["n"]
        if n == n0:
            continue
        got = {r["name"]: r["share"] for r in
               next(c for c in p["components"] if c["name"] == "compute_growth")["regions"]}
        rs = [r["R"] for r in truth if r["n"] == n]
        R = sum(rs) / len(rs)
        for k in sorted(models):
            want = (n * f(k, n) - n0 * f(k, n0)) / R
            have = got.get(k, 0.0)
            tol = 0.2 * abs(want) if abs(want) >= 0.025 else 0.005
            if abs(have - want) > tol:
                bad.append("n=%d %s: %.4f vs %.4f" % (n, k, have, want))
        first.append("%d:%s" % (n, max(got, key=got.get) if got else "-"))
    print("first=" + " ".join(first) + (" ok" if not bad else " BAD " + "; ".join(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
