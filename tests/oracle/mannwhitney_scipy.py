#!/usr/bin/python3
"""mannwhitney_scipy.py COMPARE.json — recomputes every row's Mann-Whitney
U and two-sided p-value of `amdahl compare/gate --json` with SciPy's
mannwhitneyu (the row's own method, continuity correction) and prints
"N ok" when all N rows with a test agree within 1e-9 (and N > 0), else
"worst W" with the largest difference."""
import json
import math
import sys

from scipy.stats import mannwhitneyu

d = json.load(open(sys.argv[1]))
worst, n = 0.0, 0
for r in d["rows"]:
    if r["p"] is None:  # one side only
        continue
    x, y = r["candidate"]["values"], r["baseline"]["values"]
    s = mannwhitneyu(x, y, alternative="two-sided", method=r["method"], use_continuity=True)
    p = s.pvalue if not math.isnan(s.pvalue) else 1.0  # all values equal
    worst = max(worst, abs(p - r["p"]), abs(s.statistic - r["u"]))
    n += 1
print(n, "ok" if worst <= 1e-9 and n > 0 else "worst %g" % worst)
