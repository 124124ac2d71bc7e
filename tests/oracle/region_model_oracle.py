#!/usr/bin/python3
"""region_model_oracle.py — an independent computation of `amdahl scaling`'s
model search (numpy least squares + leave-one-n-out, scipy's F
distribution; no amdahl code) from the MLflow file store and its raw trace
files (read by trace_oracle.py):

  per trace: operators by self time (less the 'Trace' category, the
  ProfilerStep#N annotations and operators also recorded as collectives),
  each under the region kind its Kineto category stands for (KINDS, as
  issue 14's region model names them: cpu_op is "op", user_annotation
  "nvtx", ...),
  collectives by summed duration, each over the trace's profiled steps;
  a region has one observation per trace (0 where the trace lacks it);
  but when some n has more than RANK_OBS (16) traces and every n at
  least two runs, one observation per run: the mean of its traces';
  runs FINISHED (or without status).

  model: t(n) = c0 + c1 n^i log2(n)^j, weighted least squares with weights
  1/(m_n^2 k_n) (m_n the mean of the k_n observations at n, floored at 1%
  of the largest), chosen by leave-one-n-out SMAPE (mean per n, averaged
  over n) among the models whose term passes an F test (p < 0.05/41,
  Bonferroni over the 41 one-term hypotheses) against the constant; kept
  when its CV beats the constant's; a model that reaches 0 anywhere from
  the smallest n to 4x the largest (at 16 points per doubling of n, and
  there) is fitted again with c0 = 0 (through the origin, its
  leave-one-n-out too), and rejected if it still does.

usage: region_model_oracle.py MLFLOW_ROOT [--axis PARAM] [--check JSON]
prints JSON: {"STRATEGY": {"KIND\\tNAME": {"i", "j", "c0", "coef"} }}
(i, j, coef null for the constant model)
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np
from scipy.stats import f as fdist

EXP_I = [-1, -0.5, 0, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1, 1.25, 4 / 3, 1.5, 2, 3]
# Kineto category -> region kind (docs/design.md, "Regions"); others "op".
KINDS = {"kernel": "kernel", "gpu_memcpy": "memcpy", "memcpy": "memcpy",
         "gpu_memset": "memset", "memset": "memset", "cuda_runtime": "cuda_api",
         "cuda_driver": "cuda_api", "runtime": "cuda_api", "driver": "cuda_api",
         "user_annotation": "nvtx", "gpu_user_annotation": "nvtx",
         "python_function": "function"}
HERE = os.path.dirname(os.path.abspath(__file__))
RANK_OBS = 16  # README "amdahl scaling": more traces than this at one n: one observation per run


def read_param(run, key):
    p = os.path.join(run, "params", key)
    return open(p).read().strip() if os.path.exists(p) else None


def status_ok(run):
    for line in open(os.path.join(run, "meta.yaml")):
        if line.startswith("status:"):
            return line.split(":")[1].strip() in ("3", "FINISHED", "0")
    return True


def trace_regions(path):
    """{(kind, name): seconds per step} of one trace file."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "trace_oracle.py"), path],
                         check=True, capture_output=True, text=True).stdout
    ops, colls, steps = [], defaultdict(int), 0
    for line in out.splitlines():
        if line.startswith("op "):
            name, cat, nums = line[3:].split("\t")
            ops.append((name, cat, int(nums.split()[2])))
        elif line.startswith("coll "):
            f = line.split(" ")
            colls[" ".join(f[1:-5])] += int(f[-3])
        elif line.startswith("step "):
            steps += 1
    steps = max(steps, 1)
    reg = defaultdict(float)
    for name, cat, self_ns in ops:
        if cat == "Trace" or name.startswith("ProfilerStep#") or name in colls:
            continue
        reg[(KINDS.get(cat, "op"), name)] += self_ns * 1e-9 / steps
    for name, dur in colls.items():
        reg[("collective", name)] += dur * 1e-9 / steps
    return reg


def per_run(ts):
    """True when the observations are runs (some n with more than
    RANK_OBS traces, every n with two runs or more)."""
    traces, runs = defaultdict(int), defaultdict(set)
    for n, run, _ in ts:
        traces[n] += 1
        runs[n].add(run)
    return max(traces.values()) > RANK_OBS and min(len(r) for r in runs.values()) >= 2


def observations(root, axis="world_size"):
    """{strategy: {region: [(n, y)]}}, one observation per trace (or per
    run, the mean over its traces); n is the run's param axis
    (world_size, or a size param for weak scaling)."""
    traces = defaultdict(list)  # strategy -> [(n, run, regions of one trace)]
    for dirpath, dirnames, files in sorted(os.walk(root)):
        if "meta.yaml" not in files or not os.path.isdir(os.path.join(dirpath, "params")):
            continue
        tdir = os.path.join(dirpath, "artifacts", "traces")
        if not os.path.isdir(tdir) or not status_ok(dirpath):
            continue
        strategy, n = read_param(dirpath, "strategy"), int(read_param(dirpath, axis))
        for t in sorted(os.listdir(tdir)):
            traces[strategy].append((n, dirpath, trace_regions(os.path.join(tdir, t))))
    obs = {}
    for strategy, ts in traces.items():
        names = set().union(*(r for _, _, r in ts))
        if per_run(ts):
            runs = defaultdict(list)
            for n, run, reg in ts:
                runs[(n, run)].append(reg)
            obs[strategy] = {r: [(n, float(np.mean([reg.get(r, 0.0) for reg in regs])))
                                 for (n, _), regs in runs.items()] for r in names}
        else:
            obs[strategy] = {r: [(n, reg.get(r, 0.0)) for n, _, reg in ts] for r in names}
    return obs


def basis(n, i, j):
    return (1.0 if i == 0 else n ** i) * np.log2(n) ** j


def weights(n, y):
    means = {u: np.mean(y[n == u]) for u in np.unique(n)}
    k = np.array([np.sum(n == u) for u in n], dtype=float)
    m = np.array([abs(means[u]) for u in n])
    d = np.maximum(m, m.max() * 1e-2)
    return np.where(d > 0, 1 / (np.where(d > 0, d, 1) ** 2 * k), 1 / k)


def fit(n, y, w, terms, origin=False):
    if origin:  # c0 fixed at 0: weighted least squares through the origin
        x = basis(n, *terms[0])
        sxx = float(np.sum(w * x * x))
        if not sxx > 0:
            return None, np.nan
        c1 = float(np.sum(w * x * y)) / sxx
        return np.array([0.0, c1]), float(np.sum(w * (y - c1 * x) ** 2))
    X = np.column_stack([np.ones_like(n)] + [basis(n, i, j) for i, j in terms])
    sw = np.sqrt(w)
    A = X * sw[:, None]
    if np.linalg.matrix_rank(A) < X.shape[1]:
        return None, np.nan
    c, *_ = np.linalg.lstsq(A, y * sw, rcond=None)
    return c, float(np.sum(w * (y - X @ c) ** 2))


def predict(c, terms, n):
    return c[0] + sum(c[k + 1] * basis(n, i, j) for k, (i, j) in enumerate(terms))


def loo(n, y, w, terms, origin=False):
    s = 0.0
    for u in np.unique(n):
        keep = n != u
        c, rss = fit(n[keep], y[keep], w[keep], terms, origin)
        if c is None or not np.isfinite(rss):
            return np.inf
        p = predict(c, terms, n[~keep])
        d = np.abs(y[~keep]) + np.abs(p)
        s += float(np.mean(np.where(d > 0, 2 * np.abs(y[~keep] - p) / np.where(d > 0, d, 1), 0)))
    return s / len(np.unique(n))


def f_test(rss0, p0, rss1, p1, m):
    if m - p1 < 1 or not rss0 > 0:
        return 1.0
    if rss1 <= rss0 * 1e-15:
        return 0.0
    F = ((rss0 - rss1) / (p1 - p0)) / (rss1 / (m - p1))
    return 1.0 if F <= 0 else float(fdist.sf(F, p1 - p0, m - p1))


def positive(c, terms, lo, hi):
    """The model stays above 0 from lo to hi: 16 points per doubling, and hi."""
    q = 0
    while True:
        x = lo * 2.0 ** (q / 16)
        if x >= hi:
            return predict(c, terms, hi) > 0
        if not predict(c, terms, x) > 0:
            return False
        q += 1


def choose(n, y, target=0.0):
    w = weights(n, y)
    lo, hi = n.min(), max(4 * n.max(), target)
    c0, rss0 = fit(n, y, w, [])
    if len(np.unique(n)) < 3:
        return [], c0, np.nan
    cv0 = loo(n, y, w, [])
    best = ([], c0, cv0)
    one = None
    for i in EXP_I:
        for j in range(3):
            if i == 0 and j == 0:
                continue
            c, rss = fit(n, y, w, [(i, j)])
            cv = loo(n, y, w, [(i, j)])
            if c is not None and np.isfinite(rss) and not positive(c, [(i, j)], lo, hi):
                c, rss = fit(n, y, w, [(i, j)], True)  # refitted under c0 >= 0
                cv = loo(n, y, w, [(i, j)], True)
            if c is None or not np.isfinite(rss) or not positive(c, [(i, j)], lo, hi):
                continue
            if (one is None or cv < one[2]) and f_test(rss0, 1, rss, 2, len(n)) < 0.05 / 41:
                one = ([(i, j)], c, cv)
    if one is not None and one[2] < cv0:
        best = one
    return best  # two-term models need 6 distinct n: none in the bundled sweeps


def close(a, b):
    return (a is None and b is None) or (
        a is not None and b is not None and abs(a - b) <= 1e-9 * abs(b) + 1e-15)


def check(oracle, path):
    doc = json.load(open(path))
    bad, seen = [], set()
    for r in doc["regions"]:
        key = (r["strategy"], f"{r['kind']}\t{r['name']}")
        seen.add(key)
        want = oracle.get(key[0], {}).get(key[1])
        if want is None:
            bad.append(f"not in the oracle: {key}")
            continue
        t = r["terms"][0] if r["terms"] else {"i": None, "j": None, "coef": None}
        same = (t["i"] is None) == (want["i"] is None) and (
            t["i"] is None or (abs(t["i"] - want["i"]) < 1e-12 and t["j"] == want["j"]))
        if not (same and close(r["c0"], want["c0"]) and close(t["coef"], want["coef"])):
            bad.append(f"{key}: amdahl {t['i']} {t['j']} {r['c0']} {t['coef']}, oracle {want}")
    bad += [f"not in amdahl: {(s, k)}" for s in oracle for k in oracle[s] if (s, k) not in seen]
    print("\n".join(bad) if bad else f"checked {len(seen)} regions")
    return 1 if bad else 0


def main():
    args = sys.argv[2:]
    opt = dict(zip(args[::2], args[1::2]))
    obs = observations(sys.argv[1], opt.get("--axis", "world_size"))
    out = {}
    for strategy, regions in obs.items():
        out[strategy] = {}
        for (kind, name), v in regions.items():
            n = np.array([a for a, _ in v], dtype=float)
            y = np.array([b for _, b in v], dtype=float)
            terms, c, _ = choose(n, y)
            out[strategy][f"{kind}\t{name}"] = {
                "i": terms[0][0] if terms else None, "j": terms[0][1] if terms else None,
                "c0": float(c[0]), "coef": float(c[1]) if terms else None}
    if "--check" in opt:
        sys.exit(check(out, opt["--check"]))
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
