"""energy_ci_check.py — the energy and power intervals of `amdahl stats
--json` (issue 35) recomputed with numpy: for every point, the mean of
its runs' energy_epoch_j, energy_run_j and power_w and the ratio
Σ energy_kept_j / Σ samples, and their 95% percentile-bootstrap intervals
from 40000 numpy resamples of the runs (pairs resampled together for the
ratio). amdahl's gsl resamples differ, so an end must agree within 6% of
the interval's width — and lie nearer numpy's bootstrap of the mean
than numpy's bootstrap of the median (the statistic is the right one).
Points with fewer than 3 runs must have no interval ("n=2: no CI");
with "few", no point may have 3+ runs. Prints "ok" or what differs.
  energy_ci_check.py STATS_JSON [few]
"""
import json
import sys

import numpy as np

STATS = (("energy_epoch_j", "energy_epoch_ci", "energy_epoch_j", None),
         ("energy_solution_j", "energy_solution_ci", "energy_run_j", None),
         ("power_w", "power_ci", "power_w", None),
         ("energy_per_sample_j", "energy_per_sample_ci", "energy_kept_j", "samples"))
B = 40000


def runs_of(point, num, den):
    a, d = [], []
    for r in point["run_values"]:
        x = r.get(num)
        y = r.get(den) if den else 1.0
        if x is not None and y is not None:
            a.append(x)
            d.append(y)
    return np.array(a, float), np.array(d, float)


COVERAGE = {3: 0.73, 4: 0.80, 5: 0.83, 6: 0.85, 7: 0.85, 8: 0.88, 9: 0.88, 10: 0.89, 11: 0.89}


def boot(a, d, stat, level, rng):
    idx = rng.integers(0, len(a), size=(B, len(a)))
    if stat == "median":
        s = np.median(a[idx], axis=1)
    else:
        s = a[idx].sum(axis=1) / d[idx].sum(axis=1)
    return np.quantile(s, [(1 - level) / 2, (1 + level) / 2])


def check(doc, few):
    bad, checked = [], 0
    rng = np.random.default_rng(20260101)
    for sw in doc["sweeps"]:
        for st in sw["strategies"]:
            for p in st["points"]:
                for key, ci_key, num, den in STATS:
                    a, d = runs_of(p, num, den)
                    where = "%s n=%s %s" % (st["strategy"], p["n"], key)
                    if len(a) == 0:
                        continue
                    value = a.sum() / d.sum()
                    if not np.isclose(p[key], value, rtol=1e-9):
                        bad.append("%s: %r, numpy %r" % (where, p[key], value))
                    ci = p[ci_key]
                    if len(a) < 3:
                        if ci is not None or p[ci_key + "_why"] != "n=%d: no CI" % len(a):
                            bad.append("%s: %d runs yet %r (%r)" % (where, len(a), ci,
                                                                 p[ci_key + "_why"]))
                        continue
                    checked += 1
                    # the 95% bootstrap, labelled with the coverage it has with this many
                    # runs (amd_mean_boot_coverage, simulated; issue 33)
                    level = 0.95
                    want = COVERAGE.get(len(a), 0.91)
                    if ci["level"] != want:
                        bad.append("%s: %d runs labelled %r, its coverage is %r" % (where, len(a),
                                                                                ci["level"], want))
                    lo, hi = boot(a, d, "mean", level, rng)
                    mlo, mhi = boot(a, d, "median", level, rng) if den is None else (None, None)
                    tol = 0.06 * (hi - lo)
                    if abs(ci["lo"] - lo) > tol or abs(ci["hi"] - hi) > tol:
                        bad.append("%s: [%g, %g], numpy [%g, %g]" % (where, ci["lo"], ci["hi"],
                                                                   lo, hi))
                    if mlo is not None and (abs(ci["lo"] - lo) + abs(ci["hi"] - hi) >
                                            abs(ci["lo"] - mlo) + abs(ci["hi"] - mhi)):
                        bad.append("%s: nearer the median's bootstrap [%g, %g]" % (where, mlo,
                                                                                  mhi))
    if few and checked:
        bad.append("%d intervals where no point should have 3+ runs" % checked)
    if not few and checked == 0:
        bad.append("no point with 3+ runs and energy")
    return bad


def main():
    bad = check(json.load(open(sys.argv[1])), len(sys.argv) > 2 and sys.argv[2] == "few")
    print("; ".join(bad[:6]) if bad else "ok")


if __name__ == "__main__":
    main()
