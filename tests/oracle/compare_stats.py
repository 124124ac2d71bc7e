#!/usr/bin/python3
"""compare_stats.py — compares `amdahl stats --json` with stats_oracle.py's
output; prints one "ok - …" / "not ok - …" line per check (TAP-like, read
by tests/e2e/stats.sh). Deterministic values must agree to REL (1e-9
relative); bootstrap intervals (different generators) must cover the
oracle's interval centre and have a width within 10% of the oracle's.

usage: compare_stats.py AMDAHL_JSON ORACLE_JSON [--usl-rel R]
"""
import argparse
import json
import math

REL = 1e-9


def close(a, b, rel):
    if a is None or b is None:
        return a is None and b is None
    if a == b:
        return True
    return abs(a - b) <= rel * max(abs(a), abs(b))


class Checker:
    def __init__(self):
        self.bad = 0

    def check(self, desc, problems):
        if problems:
            self.bad += 1
            print("not ok - " + desc)
            for p in problems[:12]:
                print("#   " + p)
        else:
            print("ok - " + desc)


def values(obj, keys, ref, rel, where, problems):
    for k in keys:
        a, b = obj.get(k), ref.get(k)
        if not close(a, b, rel):
            problems.append("%s %s: amdahl %r, oracle %r" % (where, k, a, b))


def interval(ci, why, ref, where, problems):
    """ci: amdahl's {"lo", "hi", "level"} or None (why: the reason then);
    ref: [lo, hi] or None."""
    if ref is None:
        if ci is not None:
            problems.append("%s: amdahl gives a CI, the oracle has none" % where)
        return
    if ci is None:
        problems.append("%s: no CI (%s), oracle %r" % (where, why, ref))
        return
    centre = (ref[0] + ref[1]) / 2
    w, rw = ci["hi"] - ci["lo"], ref[1] - ref[0]
    if not (ci["lo"] <= centre <= ci["hi"]):
        problems.append("%s: [%g, %g] misses the oracle's centre %g" % (where, ci["lo"], ci["hi"], centre))
    if abs(w - rw) > 0.10 * rw + 1e-12:
        problems.append("%s: width %g vs oracle %g (over 10%%)" % (where, w, rw))


DET = ["median", "mean", "sd", "cv", "min", "max", "throughput", "energy_epoch_j",
       "energy_solution_j", "energy_per_sample_j", "power_w", "util_pct"]
SCALING = ["speedup", "efficiency", "karp_flatt"]


def compare_point(name, p, o, scaling, c):
    problems = []
    if p["runs"] != o["runs"]:
        problems.append("runs: %d vs %d" % (p["runs"], o["runs"]))
    values(p, DET + (SCALING if scaling else []), o, REL, "", problems)
    # the oracle computes itwinai's fraction from torch_profiling_averages.csv;
    # where there is none, amdahl's comes from the traces (the trace parser's)
    if o.get("comp_fraction") is not None:
        values(p, ["comp_fraction"], o, REL, "", problems)
    mine = sorted(r["value"] for r in p["run_values"])
    if len(mine) != len(o["values"]) or not all(close(a, b, REL) for a, b in zip(mine, o["values"])):
        problems.append("run values %r vs %r" % (mine, o["values"]))
    flagged = sorted((r["name"], r["repeat"], int(e)) for r in p["run_values"]
                     for e in __import__("re").findall(r"epoch (\d+)", r["flagged"]))
    if flagged != [tuple(f) for f in o["flagged"]]:
        problems.append("flagged epochs %r vs %r" % (flagged, o["flagged"]))
    t = p["mean_ci_t"]
    if o["mean_ci_t"] is None:
        if t is not None:
            problems.append("t CI given, oracle has none")
    elif t is None or not close(t["lo"], o["mean_ci_t"][0], REL) or not close(t["hi"], o["mean_ci_t"][1], REL):
        problems.append("t CI of the mean %r vs %r" % (t, o["mean_ci_t"]))
    c.check("%s: deterministic values agree to %g" % (name, REL), problems)
    problems = []
    interval(p["ci"], p["ci_why"], o["ci"], "median CI", problems)
    if o.get("ci") and o.get("ci_level") is not None and p["ci"] is not None:
        # the median's order-statistic interval: its ends and exact level
        values(p["ci"], ["lo", "hi", "level"], {"lo": o["ci"][0], "hi": o["ci"][1],
                                                "level": o["ci_level"]}, REL, "median CI", problems)
    if scaling:
        interval(p["speedup_ci"], p["speedup_ci_why"], o.get("speedup_ci"), "speedup CI", problems)
    if o["runs"] < 3 and p["ci_why"] != "n=%d: no CI" % o["runs"]:
        problems.append("CI why %r, wanted 'n=%d: no CI'" % (p["ci_why"], o["runs"]))
    c.check("%s: bootstrap CIs cover the oracle's centre within 10%% width" % name, problems)


def compare_strategy(sweep, s, o, scaling, usl_rel, c):
    name = "%s %s" % (sweep, s["strategy"])
    pts = {p["n"]: p for p in s["points"]}
    c.check("%s: same n as the oracle" % name,
            [] if sorted(pts) == [p["n"] for p in o["points"]]
            else ["n %r vs %r" % (sorted(pts), [p["n"] for p in o["points"]])])
    problems = []
    values(s["base"], ["n", "value"], {"n": o["base_n"], "value": o["base_value"]}, REL, "base", problems)
    c.check("%s: base n and its median" % name, problems)
    for op in o["points"]:
        if op["n"] in pts:
            compare_point("%s n=%g" % (name, op["n"]), pts[op["n"]], op, scaling, c)
    if not scaling:
        return
    problems = []
    if "amdahl" in o:
        values(s["amdahl"], ["a", "b", "serial_fraction", "r2"], o["amdahl"], REL, "amdahl", problems)
        interval(s["amdahl"]["serial_fraction_ci"], s["amdahl"]["serial_fraction_ci_why"],
                 o["amdahl"]["serial_fraction_ci"], "serial fraction CI", problems)
    c.check("%s: Amdahl fit (numpy.polyfit on 1/n)" % name, problems)
    problems = []
    if s["usl"]["ok"] != o["usl"]["ok"]:
        problems.append("usl ok %r vs %r (%s)" % (s["usl"]["ok"], o["usl"]["ok"], s["usl"].get("why")))
    elif o["usl"]["ok"]:
        values(s["usl"], ["alpha", "beta", "gamma", "n_peak", "unconstrained_alpha",
                          "unconstrained_beta"], o["usl"], usl_rel, "usl", problems)
        if s["usl"]["bounded"] != o["usl"]["bounded"]:
            problems.append("usl bounded %r vs %r" % (s["usl"]["bounded"], o["usl"]["bounded"]))
    c.check("%s: USL fit (scipy curve_fit, with bounds when not physical) to %g" % (name, usl_rel),
            problems)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("amdahl")
    ap.add_argument("oracle")
    ap.add_argument("--usl-rel", type=float, default=REL)
    a = ap.parse_args()
    mine = {s["sweep"]: s for s in json.load(open(a.amdahl))["sweeps"]}
    ref = json.load(open(a.oracle))["sweeps"]
    c = Checker()
    for name, o in ref.items():
        if name not in mine:
            c.check("sweep %s present" % name, ["missing from amdahl's output"])
            continue
        s = mine[name]
        ex = sorted(r["id"] for r in s["excluded"])
        c.check("%s: same runs left out" % name, [] if ex == o["excluded"] else ["%r vs %r" % (ex, o["excluded"])])
        strats = {x["strategy"]: x for x in s["strategies"]}
        c.check("%s: same strategies" % name, [] if sorted(strats) == sorted(o["strategies"])
                else ["%r vs %r" % (sorted(strats), sorted(o["strategies"]))])
        for sn, so in o["strategies"].items():
            if sn in strats:
                compare_strategy(name, strats[sn], so, s["scaling"], a.usl_rel, c)
    return 1 if c.bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
