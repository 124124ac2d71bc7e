#!/usr/bin/python3
"""history_oracle.py — an independent computation of `amdahl history`'s
numbers from an MLflow file store (no amdahl code): runs grouped by a tag
or param, each run's value the median of its epoch_time_s without epoch 0,
per group the median of its runs; for a change at group index K, the
medians of the runs before and after it, their ratio, SciPy's
two-sided Mann–Whitney p (after against before; not what history prints,
which is the permutation p of its search), and the E-Divisive search of
the group medians from its definition: the largest divergence Q of
x[0..t) against x[t..k) over every t and every k (both boundaries: at
least 3 groups before, 2 after when k is the end, 3 in a block inside,
whose Q weighs 0.8) and its t ("divergence", "at").

With K also "ci": the interval of the step's factor (factor_interval: the
Moses interval of the logs' shift at its exact level, from the U null
distribution as Gaussian binomial coefficients).

usage: history_oracle.py EXPERIMENT_DIR tag.NAME|param.NAME [K]
       history_oracle.py --factor '[BEFORE...]' '[AFTER...]'   (the interval alone)
       history_oracle.py EXPERIMENT_DIR KEY --odd CAND N
prints JSON: {"groups": [[label, runs, median], ...] in order of start,
              "before": m, "after": m, "ratio": r, "p": p,
              "divergence": q, "at": t}   (the last three with K)
With --odd: the gate against a history — group CAND with the 2 groups
before it (the window) against the N groups before them: "ratio" (the
median of the window's medians over the median of theirs) and "p", the
share of every triple of the N+3 group medians (itertools.combinations)
whose sum is at least the window's (epoch time: higher is worse), and
"spread": SciPy's median_abs_deviation(scale='normal') of the logs of the
N groups' medians (gate --history's rates.spread).
"""
import itertools
import json
import math
import os
import statistics
import sys

from scipy.stats import median_abs_deviation, mannwhitneyu


def read(path):
    with open(path) as f:
        return f.read().strip()


def search(x, lo=3):
    """The largest weighted Q(x[0..t), x[t..k)): t >= lo; k the end with
    lo - 1 values after t (weight 1), or a block inside, k < len, of lo
    values at least (weight 0.8)."""
    def q(a, b):
        m, k = len(a), len(b)
        cross = sum(abs(u - v) for u in a for v in b)
        wa = sum(abs(u - v) for i, u in enumerate(a) for v in a[i + 1:])
        wb = sum(abs(u - v) for i, u in enumerate(b) for v in b[i + 1:])
        e = 2 * cross / (m * k) - wa / (m * (m - 1) / 2) - wb / (k * (k - 1) / 2)
        return m * k / (m + k) * e
    best = (float('-inf'), None)
    n, tail = len(x), lo - 1
    for t in range(lo, n - tail + 1):
        for k in range(t + tail, n + 1):
            if k < n and k - t < lo:
                continue
            v = q(x[:t], x[t:k]) * (1 if k == n else 0.8)
            if v > best[0]:
                best = (v, t)
    return best


def u_null_cdf(m, n):
    """P(U <= u), u = 0..m*n, under no difference: the coefficients of the
    Gaussian binomial [m+n, m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
    in exact integers (not the recurrence amdahl counts with)."""
    top = m * n
    poly = [1] + [0] * top
    for i in range(1, m + 1):
        for d in range(top, n + i - 1, -1):   # times (1 - q^(n+i))
            poly[d] -= poly[d - n - i]
        for d in range(i, top + 1):           # over (1 - q^i)
            poly[d] += poly[d - i]
    total, run, cdf = math.comb(m + n, m), 0, []
    for c in poly:
        run += c
        cdf.append(run / total)
    return cdf


def factor_interval(before, after, level=0.95):
    """The Moses interval of r in after = r * before (shift of the logs):
    the k-th smallest and largest of the pairwise log(a) - log(b), k the
    largest rank with 1 - 2 P(U <= k-1) >= level (1 when none reaches it),
    widened to hold the ratio of medians. {"lo", "hi", "level"}."""
    m, n = len(before), len(after)
    cdf = u_null_cdf(m, n)
    k = 1
    while k < m * n // 2 and 1 - 2 * cdf[k] >= level - 1e-12:
        k += 1
    d = sorted(math.log(a) - math.log(b) for a in after for b in before)
    r = statistics.median(after) / statistics.median(before)
    return {"lo": min(math.exp(d[k - 1]), r), "hi": max(math.exp(d[m * n - k]), r),
            "level": 1 - 2 * cdf[k - 1]}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--factor':
        before, after = json.loads(sys.argv[2]), json.loads(sys.argv[3])
        print(json.dumps(factor_interval(before, after)))
        return
    exp, key = sys.argv[1], sys.argv[2]
    kind, name = key.split('.', 1)
    groups = {}
    for rid in os.listdir(exp):
        d = os.path.join(exp, rid)
        if not os.path.isdir(d):
            continue
        meta = dict(l.split(': ', 1) for l in read(os.path.join(d, 'meta.yaml')).splitlines()
                    if ': ' in l)
        if meta.get('status') != '3':
            continue
        label = read(os.path.join(d, 'params' if kind == 'param' else 'tags', name))
        rows = [l.split() for l in read(os.path.join(d, 'metrics', 'epoch_time_s')).splitlines()]
        vals = [float(v) for _, v, step in rows if int(step) > 0]
        g = groups.setdefault(label, {'start': int(meta['start_time']), 'values': []})
        g['start'] = min(g['start'], int(meta['start_time']))
        g['values'].append(statistics.median(vals))
    order = sorted(groups, key=lambda k: groups[k]['start'])
    out = {'groups': [[k, len(groups[k]['values']), statistics.median(groups[k]['values'])]
                      for k in order]}
    if len(sys.argv) > 5 and sys.argv[3] == '--odd':
        cand, n = int(sys.argv[4]), int(sys.argv[5])
        meds = [statistics.median(groups[g]['values']) for g in order][cand - 2 - n:cand + 1]
        obs = sum(meds[n:])
        triples = list(itertools.combinations(meds, 3))
        out['p'] = sum(1 for t in triples if sum(t) >= obs - 1e-12 * obs) / len(triples)
        out['ratio'] = statistics.median(meds[n:]) / statistics.median(meds[:n])
        out['spread'] = float(median_abs_deviation([math.log(m) for m in meds[:n]], scale='normal'))
    elif len(sys.argv) > 3:
        k = int(sys.argv[3])
        before = [v for g in order[:k] for v in groups[g]['values']]
        after = [v for g in order[k:] for v in groups[g]['values']]
        out['before'] = statistics.median(before)
        out['after'] = statistics.median(after)
        out['ratio'] = out['after'] / out['before']
        out['p'] = float(mannwhitneyu(after, before, alternative='two-sided').pvalue)
        out['ci'] = factor_interval(before, after)
        meds = [statistics.median(groups[g]['values']) for g in order]
        out['divergence'], out['at'] = search(meds)
    print(json.dumps(out))


if __name__ == '__main__':
    main()
