#!/usr/bin/python3
"""report_explore_check.py — checks what tests/browser/report_explore.mjs saw
in report.html (PAGE.json) against the report's numbers: report.json and
`amdahl scaling --json` of the same store (the model the report draws).
Prints "ok" or one line per disagreement.

Usage: report_explore_check.py CHECK PAGE.json REPORT.json SCALING.json
Checks:
  bands_speedup  each band target of the speedup chart holds report.json's
                 speedup, its interval and runs at its strategy and n, every
                 point with an interval has one, and the tooltip over each
                 says them
  bands_limits   on each "What limits scaling" chart, each band's first and
                 last target (the smallest measured n and the target n) hold
                 the region model's prediction and interval (scaling --json,
                 in ms), and their tooltips say them
"""
import json
import math
import sys


def sig(v):
    """A value as the page shows it: six significant digits, as JS prints it."""
    if v is None or not math.isfinite(v):
        return "–"
    s = "%.6g" % v
    f = float(s)
    return repr(int(f)) if f == int(f) and abs(f) < 1e21 else repr(f)


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def tip_says(seen, lines):
    if seen is None or seen["tip"] is None:
        return False
    got = seen["tip"].split("\n")
    return all(w in got for w in lines)


def check_bands_speedup(page, rep, sc):
    pts = {(s["strategy"], float(p["n"])): p for s in rep["strategies"] for p in s["points"]}
    strips = page["bands"].get("speedup", [])
    out, seen = [], set()
    for b in strips:
        a = b["attrs"]
        p = pts.get((a["name"], float(a["x"])))
        if p is None or not p["speedup_ci"]:
            out.append("speedup band %s n=%s: no point with an interval in report.json" % (a["name"], a["x"]))
            continue
        seen.add((a["name"], float(a["x"])))
        ci = p["speedup_ci"]
        if not (close(float(a["v"]), p["speedup"]) and close(float(a["lo"]), ci["lo"]) and close(float(a["hi"]), ci["hi"])):
            out.append("speedup band %s n=%s holds %s [%s, %s], report.json %s [%s, %s]" %
                       (a["name"], a["x"], a["v"], a["lo"], a["hi"], p["speedup"], ci["lo"], ci["hi"]))
        runs = "runs: " + ", ".join("%s (%s)" % (r["name"] or "", (r["id"] or "")[:8]) for r in p["run_values"])
        if a.get("info") != runs:
            out.append("speedup band %s n=%s says %r, report.json %r" % (a["name"], a["x"], a.get("info"), runs))
        want = ["value " + sig(p["speedup"]), "interval %s – %s" % (sig(ci["lo"]), sig(ci["hi"])), runs]
        if b["seen"] is not None and (b["seen"]["under"] != a or not tip_says(b["seen"], want)):
            out.append("speedup band %s n=%s: tooltip %r" % (a["name"], a["x"], b["seen"]))
    missing = [k for k, p in pts.items() if p["speedup_ci"] and p["speedup_ci"]["lo"] < p["speedup_ci"]["hi"] and k not in seen]
    hovered = sum(1 for b in strips if b["seen"] is not None)
    return out + ["speedup: no band target for %s n=%g" % k for k in missing] + \
        ([] if hovered * 2 >= len(strips) > 0 else ["speedup: %d of %d band targets hovered" % (hovered, len(strips))])


def prediction(sc, strategy, name, n):
    for r in sc["regions"]:
        if r["strategy"] == strategy and (r["name"] + " (" + r["growth"] + ")" == name or
                                          (name.endswith("… (" + r["growth"] + ")") and r["name"].startswith(name[:40]))):
            for p in r["predictions"]:
                if p["n"] == n:
                    return p
    return None


def check_bands_limits(page, rep, sc):
    out, checked = [], 0
    for chart, strips in page["bands"].items():
        if not chart.startswith("limits_"):
            continue
        strategy = chart[len("limits_"):]
        ends = [b for b in strips if b["attrs"]["i"] in ("0", "63")]
        for b in ends:
            a = b["attrs"]
            p = prediction(sc, strategy, a["name"], float(a["x"]))
            if p is None:
                out.append("%s: no prediction for %r at n=%s in scaling --json" % (chart, a["name"], a["x"]))
                continue
            checked += 1
            v, lo, hi = p["value"] * 1e3, p["ci"]["lo"] * 1e3, p["ci"]["hi"] * 1e3
            if not close(float(a["v"]), v):
                out.append("%s %s n=%s holds %s ms, scaling --json %s ms" % (chart, a["name"], a["x"], a["v"], v))
            said = "prediction interval %s – %s ms" % ("%.6g" % lo, "%.6g" % hi)
            if lo > 0 and said not in a.get("info", ""):
                out.append("%s %s n=%s says %r, scaling --json %r" % (chart, a["name"], a["x"], a.get("info"), said))
            if b["seen"] is not None and (b["seen"]["under"] != a or not tip_says(b["seen"], ["value " + sig(float(a["v"])), a.get("info", "")])):
                out.append("%s %s n=%s: tooltip %r" % (chart, a["name"], a["x"], b["seen"]))
    return out + ([] if checked >= 8 else ["only %d band ends checked against scaling --json" % checked])


def main():
    check, page_path, rep_path, sc_path = sys.argv[1:5]
    page = json.load(open(page_path))
    rep = json.load(open(rep_path))
    sc = json.load(open(sc_path))
    out = globals()["check_" + check](page, rep, sc)
    print("\n".join(out[:20]) if out else "ok")


main()
