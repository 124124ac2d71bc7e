#!/usr/bin/python3
"""gate_noise.py — checks a compare/gate --json document's noise fields
independently (numpy/scipy, no amdahl code) and, given the same
comparison as --format csv, that the CSV carries the JSON's numbers.

  gate_noise.py JSON [CSV] [--junit XML]

Prints "ok - …" / "not ok - …" lines:
- detectable_change of every row with both sides >= 2 runs is the shift
  at which scipy.stats.mannwhitneyu (two-sided, exact when no ties and
  m·n <= 2500), at a = alpha / Holm family size for gated rows (alpha for
  the others), rejects 80% of the time: simulated here with numpy's own
  generator, normal noise with each side's sd (ddof=1) relative to the
  baseline median, 2000 draws — power within 0.80 ± 0.04 at amdahl's
  change (issue 33: the z-test formula gave 47-76%), and below 0.80 at
  0.9× it; null (with a note) when the smallest attainable p
  2/C(m+n, m) exceeds a.
- with --junit, the gate's JUnit file of the same comparison: one testcase
  per row in order, each with a property detectable_change equal to the
  expected value ("none", "unknown" or the fraction) and a system-out
  stating it as a percentage.
- likely is "regression" exactly for the insufficient rows whose interval
  lies wholly past the threshold in the bad direction ("improvement" in the
  good one), and summary.likely_regressions counts the gated ones.
"""
import csv
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
from scipy.stats import mannwhitneyu

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict_words import shown  # noqa: E402 (the words the CSV prints)


def expected_detectable(r, family):
    b, c = r["baseline"], r["candidate"]
    if b["runs"] < 2 or c["runs"] < 2 or not b.get("median"):
        return None
    a = r["alpha"] / family if r["gated"] and family > 1 else r["alpha"]
    m, n = b["runs"], c["runs"]
    if 2 / math.comb(m + n, m) > a:
        return "none"
    return ("power", a)


def mw_power(r, a, shift, draws=2000, seed=7):
    """scipy's Mann-Whitney rejection rate at level a for a relative shift."""
    b, c = r["baseline"], r["candidate"]
    m, n = b["runs"], c["runs"]
    vb = np.std(b["values"], ddof=1) / abs(b["median"])
    vc = np.std(c["values"], ddof=1) / abs(b["median"])
    rng = np.random.default_rng(seed)
    x = 1 + vb * rng.standard_normal((draws, m))
    y = 1 + shift + vc * rng.standard_normal((draws, n))
    method = "exact" if m * n <= 2500 else "asymptotic"
    p = mannwhitneyu(x, y, alternative="two-sided", method=method, axis=1).pvalue
    return float(np.mean(p <= a))


def expected_likely(r):
    if r["verdict"] != "insufficient_data" or not r["ci"]:
        return None
    up, down = 1 + r["threshold"], 1 - r["threshold"]
    above, below = r["ci"]["lo"] > up, r["ci"]["hi"] < down
    if r["direction"] == "lower":
        return "regression" if above else "improvement" if below else None
    return "regression" if below else "improvement" if above else None


def say(ok, what, detail=""):
    print(("ok - " if ok else "not ok - ") + what)
    if not ok and detail:
        print("# " + detail)


def check_junit(d, family, path):
    cases = ET.parse(path).getroot().findall("./testsuite/testcase")
    say(len(cases) == len(d["rows"]), "junit: %d testcases" % len(d["rows"]), str(len(cases)))
    for r, tc in zip(d["rows"], cases):
        name = "%s %s n=%g" % (r["metric"], r["strategy"], r["n"])
        want = expected_detectable(r, family)
        prop = tc.find("./properties/property[@name='detectable_change']")
        got = prop.get("value") if prop is not None else None
        out = tc.findtext("system-out") or ""
        if want in ("none", None):
            word = "none" if want == "none" else "unknown"
            ok = got == word and ("could detect: " + word) in out
        else:  # the JSON's value (its power is checked on the JSON)
            j = r.get("detectable_change")
            ok = (got not in (None, "none", "unknown") and j is not None and
                  abs(float(got) - j) <= 1e-9 * max(1, j) and
                  ("%.1f%%" % (100 * j)) in out)
        say(ok and tc.get("classname") == "amdahl.gate." + r["metric"],
            "junit %s: detectable_change %s" % (name, want), "%r %r" % (got, out))


def main():
    junit = None
    if "--junit" in sys.argv:
        i = sys.argv.index("--junit")
        junit = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    d = json.load(open(sys.argv[1]))
    family = d["summary"]["holm_family"]
    for r in d["rows"]:
        name = "%s %s n=%g" % (r["metric"], r["strategy"], r["n"])
        want = expected_detectable(r, family)
        got = r.get("detectable_change")
        if want == "none":
            say(got is None and r["detectable_note"] is not None, name + ": no detectable change", repr(got))
        elif want is not None:
            pw = mw_power(r, want[1], got) if got is not None else None
            lower = mw_power(r, want[1], 0.9 * got) if got is not None else None
            say(pw is not None and abs(pw - 0.8) <= 0.04 and lower < 0.8,
                name + ": Mann-Whitney power 0.80 at the detectable change %r" % got,
                "scipy: power %r there, %r at 0.9x" % (pw, lower))
        say(r.get("likely") == expected_likely(r), name + ": likely %s" % expected_likely(r),
            "amdahl: %r" % r.get("likely"))
    n_likely = sum(1 for r in d["rows"] if r["gated"] and expected_likely(r) == "regression")
    say(d["summary"]["likely_regressions"] == n_likely, "summary: %d likely regressions" % n_likely)
    if junit:
        check_junit(d, family, junit)
    if len(sys.argv) > 2:
        rows = list(csv.DictReader(open(sys.argv[2], newline="")))
        say(len(rows) == len(d["rows"]), "csv: %d rows" % len(d["rows"]), "csv has %d" % len(rows))
        for r, c in zip(d["rows"], rows):
            near = lambda a, b: abs(float(a) - b) <= 1e-12 * max(1, abs(b))
            same = (c["metric"] == r["metric"] and float(c["n"]) == r["n"] and
                    near(c["ratio"], r["ratio"]) and c["verdict"] == shown(r) and
                    near(c["baseline_median"], r["baseline"]["median"]) and
                    (c["p"] == "" if r["p"] is None else near(c["p"], r["p"])))
            say(same, "csv row %s %s n=%s has the JSON's numbers" % (c["metric"], c["strategy"],
                                                                    c["n"]), repr(c))


if __name__ == "__main__":
    main()
