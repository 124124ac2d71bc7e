#!/usr/bin/python3
"""interval_walk.py — walks JSON documents amdahl wrote and checks every
interval {"lo", "hi", "level"} (issue 33): lo <= hi, and the value the
interval is of lies within it. The value is found beside the interval
in the same object: for key "ci" the object's "value", "median",
"ratio" or "estimate"; for "X_ci" (and "X_ci_t") the key "X". Intervals
with a null end, or values that are null, are skipped (none to check).

usage: interval_walk.py FILE...
prints "ok N intervals M points" or one line per problem (exit 1).
"""
import json
import sys

POINT_OF_CI = ("value", "median", "ratio", "estimate")


def is_interval(v):
    return isinstance(v, dict) and "lo" in v and "hi" in v and "level" in v


def point_key(obj, key):
    if key == "ci":
        return next((k for k in POINT_OF_CI if k in obj), None)
    for suffix in ("_ci", "_ci_t"):
        if key.endswith(suffix) and key[: -len(suffix)] in obj:
            return key[: -len(suffix)]
    return None


def walk(v, path, out):
    if isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, f"{path}[{i}]", out)
        return
    if not isinstance(v, dict):
        return
    for k, x in v.items():
        if is_interval(x):
            lo, hi = x["lo"], x["hi"]
            if lo is None or hi is None:
                continue
            out["n"] += 1
            if lo > hi:
                out["bad"].append(f"{path}.{k}: inverted [{lo}, {hi}]")
            p = point_key(v, k)
            val = v.get(p) if p else None
            if isinstance(val, (int, float)) and not isinstance(val, bool):
                out["points"] += 1
                tol = 1e-12 * max(abs(lo), abs(hi), abs(val))
                if not (lo - tol <= val <= hi + tol):
                    out["bad"].append(f"{path}.{k}: {p} {val} outside [{lo}, {hi}]")
        else:
            walk(x, f"{path}.{k}", out)


def main():
    out = {"n": 0, "points": 0, "bad": []}
    for f in sys.argv[1:]:
        walk(json.load(open(f)), f.rsplit("/", 1)[-1], out)
    print("\n".join(out["bad"]) if out["bad"] else f"ok {out['n']} intervals {out['points']} points")
    return 1 if out["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
