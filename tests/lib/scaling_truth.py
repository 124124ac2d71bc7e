#!/usr/bin/python3
"""scaling_truth.py — checks `amdahl scaling --json` against `amdahl
stats --json` of the same sweep (issue 33, items 1 and 2), with numpy:

  whole: every row at a measured n has source "measured" and holds the
  epoch time (median, interval) and efficiency (value, interval) stats
  prints, efficiency exactly 1 at the base n; every other row has source
  "predicted";
  models: every region's model (c0 + Σ coef·n^i·log2(n)^j) stays above 0
  from the smallest measured n to the strategy's target n (numpy, 256
  points per doubling of n, and the target).

usage: scaling_truth.py SCALING_JSON STATS_JSON
prints "ok N rows M models" or one line per problem (exit 1).
"""
import json
import sys

import numpy as np


def model(r, n):
    v = np.full_like(n, r["c0"], dtype=float)
    for t in r["terms"]:
        v += t["coef"] * n ** t["i"] * np.log2(n) ** t["j"]
    return v


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-12 * abs(b)


def same_ci(a, b):
    if a is None or b is None:
        return a is None and b is None
    return close(a["lo"], b["lo"]) and close(a["hi"], b["hi"])


def main():
    sc, st = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    points = {(s["strategy"], p["n"]): p for w in st["sweeps"] for s in w["strategies"]
              for p in s["points"]}
    bad, rows, models = [], 0, 0
    for s in sc["strategies"]:
        base = min(s["n"])
        for w in s["whole"]:
            rows += 1
            key = (s["strategy"], w["n"])
            if w["n"] not in s["n"]:
                if w.get("source") != "predicted":
                    bad.append(f"{key}: not measured, source {w.get('source')}")
                continue
            p = points.get(key)
            if w.get("source") != "measured" or p is None:
                bad.append(f"{key}: measured n, source {w.get('source')}, stats point {p is not None}")
                continue
            if not (close(w["epoch_s"]["value"], p["median"]) and same_ci(w["epoch_s"]["ci"], p["ci"])):
                bad.append(f"{key}: epoch {w['epoch_s']}, stats {p['median']} {p['ci']}")
            if not (close(w["efficiency"]["value"], p["efficiency"])
                    and same_ci(w["efficiency"]["ci"], p["efficiency_ci"])):
                bad.append(f"{key}: efficiency {w['efficiency']}, stats {p['efficiency']}")
            if w["n"] == base and w["efficiency"]["value"] != 1:
                bad.append(f"{key}: efficiency at the base n {w['efficiency']['value']}")
        lo, hi = min(s["n"]), s["target"]
        grid = np.append(lo * 2.0 ** (np.arange(0, 256 * np.log2(hi / lo)) / 256), hi)
        for r in [x for x in sc["regions"] if x["strategy"] == s["strategy"]] + s["step"]:
            models += 1
            v = model(r, grid)
            if not np.all(v > 0):
                bad.append(f"{key[0]} {r['name']}: {v.min():.3g} at n = {grid[np.argmin(v)]:.4g}")
    print("\n".join(bad) if bad else f"ok {rows} rows {models} models")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
