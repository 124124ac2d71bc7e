#!/usr/bin/python3
"""stats_oracle.py — an independent computation of `amdahl stats` from the
MLflow file store itself (numpy + scipy, no amdahl code): logical runs with
itwinai child workers folded in, epoch exclusion (warm-up, epochs that
overlap a profiler trace window read from the trace files), per
configuration statistics, bootstrap CIs (numpy's own generator), speedup,
efficiency, Karp–Flatt, Amdahl (numpy.polyfit on 1/n) and USL
(scipy.optimize.curve_fit; with bounds alpha, beta >= 0 when the
unconstrained fit is not physical), throughput and energy.

A configuration's runs reduce to one value by the median, or with
--aggregate mlperf by MLPerf's rule (sort, drop the first and the last,
the mean of the rest; below 3 runs the mean) — in the point value, the
bootstrap intervals, speedup and the fits alike.

usage: stats_oracle.py MLFLOW_ROOT [--axis PARAM] [--no-windows] [--metric M]
                       [--aggregate median|mlperf]
prints JSON: {"sweeps": {name: {...}}}
"""
import argparse
import csv
import gzip
import json
import math
import statistics
from fractions import Fraction
import os
import re
import sys

import numpy as np
from scipy.optimize import curve_fit
from scipy.stats import binom
from scipy.stats import t as student_t

N_KEYS = ["global_world_size", "world_size", "num_gpus", "n_gpus", "ngpus", "gpus",
          "num_processes", "nproc", "num_ranks"]
STRATEGY_KEYS = ["strategy", "distributed_strategy", "dist_strategy", "backend_strategy"]
RANK_KEYS = ["global_rank", "rank"]
REPEAT_KEYS = ["repeat", "repetition", "rep", "seed_repeat"]
B = 4000
SEED = 12345
LEVEL = 0.95
MAD_K = 3.5
AGGREGATE = "median"


def agg(x, axis=None):
    """The configuration statistic of x (axis None) or of each row of a
    2-D x (axis 1): np.median, or MLPerf's trimmed mean."""
    x = np.asarray(x, dtype=float)
    if AGGREGATE == "median":
        return np.median(x, axis=axis)
    v = np.sort(x.ravel() if axis is None else x, axis=-1)
    if v.shape[-1] >= 3:
        v = v[..., 1:-1]
    return np.mean(v, axis=-1)


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\w+):\s*(.*)$", line)
            if m:
                meta[m.group(1)] = m.group(2).strip().strip("'\"")
    return meta


def read_kv_dir(d):
    out = {}
    if not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        for fn in files:
            key = os.path.relpath(os.path.join(root, fn), d)
            with open(os.path.join(root, fn)) as f:
                out[key] = f.read().strip()
    return out


def read_metrics(d):
    out = {}
    if not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        for fn in files:
            key = os.path.relpath(os.path.join(root, fn), d)
            pts = []
            with open(os.path.join(root, fn)) as f:
                for line in f:
                    p = line.split()
                    if len(p) == 3:
                        pts.append((int(p[2]), int(p[0]), float(p[1])))
                    elif len(p) == 2:
                        pts.append((0, int(p[0]), float(p[1])))
            out[key] = pts
    return out


def trace_window(path):
    """(start_ns, end_ns) of a Kineto trace: baseTimeNanoseconds + ts (µs)."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        d = json.load(f)
    base = int(d.get("baseTimeNanoseconds", 0))
    rank = int(d.get("distributedInfo", {}).get("rank", 0))
    lo, hi = math.inf, -math.inf
    for e in d.get("traceEvents", []):
        if "ts" not in e or e.get("ph") not in ("X", "i", "I", "B", "E"):
            continue
        ts = float(e["ts"])
        lo = min(lo, ts)
        hi = max(hi, ts + float(e.get("dur", 0) or 0))
    if lo == math.inf:
        return None
    return base + lo * 1000, base + hi * 1000, rank


def first(params, keys):
    for k in keys:
        if k in params:
            return params[k]
    return None


def load_runs(root):
    sweeps = {}
    for exp in sorted(os.listdir(root)):
        ed = os.path.join(root, exp)
        if exp.startswith(".") or not os.path.isfile(os.path.join(ed, "meta.yaml")):
            continue
        name = read_meta(os.path.join(ed, "meta.yaml")).get("name", exp)
        runs = {}
        for rid in os.listdir(ed):
            rd = os.path.join(ed, rid)
            if not os.path.isfile(os.path.join(rd, "meta.yaml")):
                continue
            meta = read_meta(os.path.join(rd, "meta.yaml"))
            tags = read_kv_dir(os.path.join(rd, "tags"))
            params = read_kv_dir(os.path.join(rd, "params"))
            traces, ops = [], []
            for r2, _, files in os.walk(os.path.join(rd, "artifacts")):
                traces += [os.path.join(r2, f) for f in files if ".pt.trace.json" in f]
                ops += [os.path.join(r2, f) for f in files if f == "torch_profiling_averages.csv"]
            runs[rid] = dict(id=rid, meta=meta, tags=tags, params=params,
                             metrics=read_metrics(os.path.join(rd, "metrics")),
                             name=meta.get("run_name") or meta.get("name") or tags.get("mlflow.runName"),
                             status=int(meta.get("status", 0)),
                             start=int(meta.get("start_time") or 0),
                             parent=tags.get("mlflow.parentRunId"), traces=traces, ops=ops)
        sweeps[name] = runs
    return sweeps


def logical_runs(runs):
    tops = [r for r in runs.values() if not r["parent"] or r["parent"] not in runs]
    out = []
    for t in tops:
        kids = [r for r in runs.values() if r["parent"] == t["id"]]
        members = [(0 if first(t["params"], RANK_KEYS) is None else int(first(t["params"], RANK_KEYS)), t)]
        for k in kids:
            rk = first(k["params"], RANK_KEYS)
            members.append((int(rk) if rk is not None else 0, k))
        strategy = first(t["params"], STRATEGY_KEYS)
        if strategy is None:
            ks = [first(k["params"], STRATEGY_KEYS) for k in kids]
            ks = [s for s in ks if s is not None]
            strategy = min(ks) if ks else None
        n = first(t["params"], N_KEYS)
        if n is None:
            ks = [int(first(k["params"], N_KEYS)) for k in kids if first(k["params"], N_KEYS)]
            n = max(ks) if ks else None
        params = dict(t["params"])
        for _, k in sorted(members, key=lambda m: m[0]):
            for key, v in k["params"].items():
                params.setdefault(key, v)
        out.append(dict(id=t["id"], name=t["name"], strategy=strategy or "",
                        n=int(n) if n is not None else None, status=t["status"],
                        start=t["start"], members=members, params=params,
                        repeat=first(t["params"], REPEAT_KEYS),
                        traces=sum((m["traces"] for _, m in members), []),
                        ops=[(m["id"], f) for _, m in members for f in m["ops"]]))
    # repeat: logged, else order by start time among launches of the same name
    for r in out:
        if r["repeat"] is None:
            same = sorted((x for x in out if x["name"] == r["name"]), key=lambda x: (x["start"], x["id"]))
            r["repeat"] = [x["id"] for x in same].index(r["id"])
        r["repeat"] = int(r["repeat"])
    return out


def points(run, key, lowest_only=True):
    pts = []
    for rank, m in run["members"]:
        for step, ts, v in m["metrics"].get(key, []):
            pts.append((rank, step, ts, v))
    pts.sort(key=lambda p: (p[0], p[1], p[2]))
    if lowest_only and pts:
        pts = [p for p in pts if p[0] == pts[0][0]]
    return pts


def epochs(run, metric, windows):
    pts = points(run, metric)
    wins = [trace_window(t) for t in run["traces"]] if windows else []
    wins = [w for w in wins if w]
    kept, kept_steps, excluded = [], [], []
    for i, (_, step, ts, v) in enumerate(pts):
        beg = pts[i - 1][2] if i else run["start"]
        if not beg or beg > ts:
            beg = ts
        prof = any(w[0] / 1e6 < ts and w[1] / 1e6 > beg for w in wins)
        if step == 0:
            excluded.append((step, "warm-up"))
        elif prof:
            excluded.append((step, "profiled"))
        elif math.isnan(v):
            excluded.append((step, "NaN"))
        elif not (math.isfinite(v) and v > 0):  # no speedup of a time or rate <= 0
            excluded.append((step, "impossible"))
        else:
            kept.append(v)
            kept_steps.append(step)
    return pts, kept, kept_steps, excluded


def exact_median(x):
    """The median in exact rational arithmetic, rounded once: never
    overflows where numpy's (a + b) / 2 does (values near 1e308)."""
    return float(statistics.median(Fraction(v) for v in x))


def mad_flags(x):
    x = np.asarray(x)
    if len(x) < 3:
        return []
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    if not mad > 0:
        return []
    return [i for i, v in enumerate(x) if 0.6745 * abs(v - med) / mad > MAD_K]


COMP = re.compile(r".*(?:aten|\sat|c10|autograd)::")


def op_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def op_sums(run):
    """itwinai's computation-vs-other sums over the run's operator averages:
    self CUDA time of ATen/c10/autograd ops, and of all ops but ProfilerStep*."""
    comp = total = 0.0
    rows = [row for _, f in run["ops"] for row in op_rows(f)]
    for row in rows:
        if row["name"].startswith("ProfilerStep"):
            continue
        t = float(row["self_cuda_time_total"])
        total += t
        if COMP.match(row["name"]):
            comp += t
    return (comp, total) if rows else None


def run_value(run, metric, windows):
    pts, kept, steps, excluded = epochs(run, metric, windows)
    r = dict(id=run["id"], name=run["name"], repeat=run["repeat"], n_epochs=len(pts),
             excluded=excluded, kept_steps=steps)
    if not kept:
        return r
    r["value"] = exact_median(kept)
    r["flagged"] = [steps[i] for i in mad_flags(kept)]
    # throughput: samples = throughput x epoch time, over the kept epochs
    thr = {p[1]: p[3] for p in points(run, "throughput_samples_per_s")}
    et = {p[1]: p[3] for p in points(run, "epoch_time_s")}
    pairs = [(thr[s] * et[s], et[s]) for s in steps if s in thr and s in et]
    if pairs:
        r["samples"] = sum(p[0] for p in pairs)
        r["time_s"] = sum(p[1] for p in pairs)
        r["throughput"] = r["samples"] / r["time_s"]
    energy = points(run, "gpu_energy_J", lowest_only=False)
    power = points(run, "gpu_power_W", lowest_only=False)
    util = points(run, "gpu_util_pct", lowest_only=False) or points(run, "gpu_utilization_percent", lowest_only=False)
    if energy:
        kept_e = [p[3] for p in energy if p[1] in steps]
        r["energy_run_j"] = sum(p[3] for p in energy)
        r["energy_kept_j"] = sum(kept_e)
        r["energy_epoch_j"] = sum(kept_e) / len(kept_e)
    elif power and "probing_interval" in run["params"]:
        iv = float(run["params"]["probing_interval"])
        r["energy_run_j"] = sum(p[3] * iv for p in power)
        r["energy_epoch_j"] = float(np.mean([p[3] for p in power])) * r["value"]
    sums = op_sums(run)
    if sums:
        r["op_comp_us"], r["op_total_us"] = sums
    if power:
        r["power_w"] = float(np.mean([p[3] for p in power]))
    if util:
        r["util_pct"] = float(np.mean([p[3] for p in util]))
    return r


def boot_median_ci(x, rng):
    x = np.asarray(x)
    if len(x) < 3:
        return None
    idx = rng.integers(0, len(x), size=(B, len(x)))
    meds = agg(x[idx], axis=1)
    return [float(np.quantile(meds, (1 - LEVEL) / 2)), float(np.quantile(meds, (1 + LEVEL) / 2))]


def median_os_ci(x, rng):
    """The median's interval (issue 33): with the median aggregate, the
    order statistics [x(j), x(n+1-j)], j the largest whose exact coverage
    1 - 2 binom.cdf(j-1, n, 1/2) is at least LEVEL (j = 1 below: [min,
    max] and its own level); with another aggregate the bootstrap. The
    bootstrap is drawn either way, so the generator's stream is unchanged.
    Returns (interval, its exact level or None for the bootstrap)."""
    boot = boot_median_ci(x, rng)
    if AGGREGATE != "median" or boot is None:
        return boot, None
    v, n = np.sort(np.asarray(x, dtype=float)), len(x)
    j, level = 1, 1 - 2 * binom.cdf(0, n, 0.5)
    while 2 * (j + 1) <= n and 1 - 2 * binom.cdf(j, n, 0.5) >= LEVEL:
        level = 1 - 2 * binom.cdf(j, n, 0.5)
        j += 1
    return [float(v[j - 1]), float(v[n - j])], float(level)


def t_ci(x):
    if len(x) < 3:
        return None
    h = student_t.ppf((1 + LEVEL) / 2, len(x) - 1) * np.std(x, ddof=1) / math.sqrt(len(x))
    return [float(np.mean(x) - h), float(np.mean(x) + h)]


def boot_ratio_ci(num, den, rng):
    num, den = np.asarray(num), np.asarray(den)
    if len(num) < 3 or len(den) < 3:
        return None
    a = agg(num[rng.integers(0, len(num), size=(B, len(num)))], axis=1)
    b = agg(den[rng.integers(0, len(den), size=(B, len(den)))], axis=1)
    r = a / b
    return [float(np.quantile(r, (1 - LEVEL) / 2)), float(np.quantile(r, (1 + LEVEL) / 2))]


def amdahl(ns, ts):
    u = 1.0 / np.asarray(ns, dtype=float)
    b, a = np.polyfit(u, ts, 1)
    pred = a + b * u
    tss = float(np.sum((np.asarray(ts) - np.mean(ts)) ** 2))
    return dict(a=float(a), b=float(b), serial_fraction=float(a / (a + b)),
                r2=float(1 - np.sum((np.asarray(ts) - pred) ** 2) / tss) if tss > 0 else None)


def amdahl_serial_ci(groups, rng):
    if any(len(g[1]) < 3 for g in groups) or len(groups) < 2:
        return None
    ns = [g[0] for g in groups]
    sers = []
    meds = [agg(np.asarray(g[1])[rng.integers(0, len(g[1]), size=(B, len(g[1])))], axis=1)
            for g in groups]
    for i in range(B):
        sers.append(amdahl(ns, [m[i] for m in meds])["serial_fraction"])
    return [float(np.quantile(sers, (1 - LEVEL) / 2)), float(np.quantile(sers, (1 + LEVEL) / 2))]


def usl_model(n, alpha, beta, gamma):
    return gamma * n / (1 + alpha * (n - 1) + beta * n * (n - 1))


def gauss_newton(ns, xs, p, free=(True, True, True)):
    """Polishes a least-squares solution: curve_fit stops on the relative
    change of the sum of squares, which pins the parameters only to about
    its square root. Only the free parameters move (the others stay at
    their bound, 0)."""
    free = np.asarray(free)
    def resid(q):
        return usl_model(ns, *q) - xs
    for _ in range(50):
        a, b, g = p
        den = 1 + a * (ns - 1) + b * ns * (ns - 1)
        J = np.column_stack([-g * ns * (ns - 1) / den ** 2, -g * ns * ns * (ns - 1) / den ** 2, ns / den])
        dx = np.zeros(3)
        dx[free] = np.linalg.lstsq(J[:, free], -resid(p), rcond=None)[0]
        q = p + dx
        if not np.sum(resid(q) ** 2) <= np.sum(resid(p) ** 2) * (1 + 1e-12):
            break
        p = q
        if np.max(np.abs(dx[free]) / (np.abs(p[free]) + 1e-300)) < 1e-15:
            break
    return p


def usl(ns, xs):
    """USL under alpha, beta >= 0 (issue 33): curve_fit unconstrained; when
    its alpha or beta is negative, curve_fit with bounds (trf), the
    parameters it leaves at the bound held at 0 while the others are
    polished; no peak then."""
    if len(set(ns)) < 4:
        return dict(ok=False)
    ns, xs = np.asarray(ns, dtype=float), np.asarray(xs, dtype=float)
    p0 = [0.0, 0.0, xs[np.argmin(ns)] / ns.min()]
    p, _ = curve_fit(usl_model, ns, xs, p0=p0, method="lm", ftol=1e-15, xtol=1e-15,
                     gtol=1e-15, maxfev=100000)
    p = gauss_newton(ns, xs, p)
    free_a, free_b = float(p[0]), float(p[1])
    bounded = not (p[0] >= 0 and p[1] >= 0 and p[2] > 0)
    if bounded:
        p, _ = curve_fit(usl_model, ns, xs, p0=[0.0, 0.0, p0[2]], method="trf",
                         bounds=([0, 0, 0], [np.inf] * 3), ftol=1e-15, xtol=1e-15,
                         gtol=1e-15, max_nfev=100000)
        free = (p[0] > 1e-9, p[1] > 1e-12, True)
        p = np.where(free, p, 0.0)
        p = gauss_newton(ns, xs, p, free)
    alpha, beta, gamma = (float(v) for v in p)
    peak = math.sqrt((1 - alpha) / beta) if not bounded and beta > 0 and alpha < 1 else None
    return dict(ok=True, alpha=alpha, beta=beta, gamma=gamma, n_peak=peak, bounded=bounded,
                unconstrained_alpha=free_a, unconstrained_beta=free_b)


def ratio_of_sums(rs, num, den):
    if any(num not in r or den not in r for r in rs):
        return None
    d = sum(r[den] for r in rs)
    return sum(r[num] for r in rs) / d if d > 0 else None


def pooled(rs, num, den):
    have = [r for r in rs if num in r and den in r]
    d = sum(r[den] for r in have)
    return sum(r[num] for r in have) / d if have and d > 0 else None


def mean_of(rs, key):
    v = [r[key] for r in rs if key in r and r[key] is not None and math.isfinite(r[key])]
    return float(np.mean(v)) if v else None


def point(n, rs, rng):
    x = np.asarray([r["value"] for r in rs])
    ci, ci_level = median_os_ci(x, rng)
    return dict(n=n, runs=len(rs), median=float(agg(x)), mean=float(np.mean(x)),
                sd=float(np.std(x, ddof=1)) if len(x) > 1 else None,
                cv=float(np.std(x, ddof=1) / np.mean(x)) if len(x) > 1 else None,
                min=float(x.min()), max=float(x.max()), ci=ci, ci_level=ci_level,
                mean_ci_t=t_ci(x),
                throughput=ratio_of_sums(rs, "samples", "time_s"),
                energy_per_sample_j=ratio_of_sums(rs, "energy_kept_j", "samples"),
                energy_epoch_j=mean_of(rs, "energy_epoch_j"),
                energy_solution_j=mean_of(rs, "energy_run_j"),
                power_w=mean_of(rs, "power_w"), util_pct=mean_of(rs, "util_pct"),
                comp_fraction=pooled(rs, "op_comp_us", "op_total_us"),
                values=sorted(x.tolist()),
                flagged=sorted((r["name"], r["repeat"], s) for r in rs for s in r.get("flagged", [])))


def strategy(pts, scaling, rng):
    base = pts[0]
    out = dict(base_n=base["n"], base_value=base["median"], points=pts)
    if not scaling:
        return out
    for p in pts:
        p["speedup"] = base["median"] / p["median"]
        p["efficiency"] = p["speedup"] * base["n"] / p["n"]
        q = p["n"] / base["n"]
        p["karp_flatt"] = (1 / p["speedup"] - 1 / q) / (1 - 1 / q) if q > 1 else None
        p["speedup_ci"] = None if p is base else boot_ratio_ci(base["values"], p["values"], rng)
    ns = [p["n"] for p in pts]
    if len(set(ns)) >= 2:
        out["amdahl"] = amdahl(ns, [p["median"] for p in pts])
        out["amdahl"]["serial_fraction_ci"] = amdahl_serial_ci([(p["n"], p["values"]) for p in pts], rng)
    out["usl"] = usl(ns, [1 / p["median"] for p in pts])
    return out


def analyse(runs, metric, axis, windows):
    rng = np.random.default_rng(SEED)
    included, excluded = {}, []
    for r in logical_runs(runs):
        if axis:
            try:
                nval = float(r["params"][axis])
            except (KeyError, ValueError):
                nval = None
        else:
            nval = float(r["n"]) if r["n"] else None
        if r["status"] not in (0, 3) or nval is None:
            excluded.append(r["id"])
            continue
        v = run_value(r, metric, windows)
        if "value" not in v:
            excluded.append(r["id"])
            continue
        included.setdefault(r["strategy"], {}).setdefault(nval, []).append(v)
    strategies = {}
    for s in sorted(included):
        pts = [point(n, included[s][n], rng) for n in sorted(included[s])]
        strategies[s] = strategy(pts, axis is None, rng)
    return dict(strategies=strategies, excluded=sorted(excluded))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--axis")
    ap.add_argument("--metric", default="epoch_time_s")
    ap.add_argument("--no-windows", action="store_true")
    ap.add_argument("--aggregate", choices=["median", "mlperf"], default="median")
    ap.add_argument("--windows-sql", action="store_true",
                    help="print SQL that records each trace file's window in the store's"
                         " trace table (what the trace parser records)")
    ap.add_argument("--ops-sql", action="store_true",
                    help="print SQL that records each torch_profiling_averages.csv row in the"
                         " store's op_average table (what the itwinai CSV parser records)")
    a = ap.parse_args()
    global AGGREGATE
    AGGREGATE = a.aggregate
    if a.ops_sql:
        for runs in load_runs(a.root).values():
            for r in runs.values():
                for f in r["ops"]:
                    for row in op_rows(f):
                        name = row["name"].replace("'", "''")
                        print("INSERT OR IGNORE INTO dict(s) VALUES('%s');" % name)
                        print("INSERT INTO op_average(run_id, source_id, name_id, rank, self_cuda_us,"
                              " cuda_total_us, calls) SELECT r.id, 0, d.id, %d, %r, %r, %d FROM run r,"
                              " dict d WHERE r.ext_id = '%s' AND d.s = '%s';"
                              % (int(row["global_rank"]), float(row["self_cuda_time_total"]),
                                 float(row["cuda_time_total"]), int(row["calls"]), r["id"], name))
        return
    if a.windows_sql:
        for runs in load_runs(a.root).values():
            for r in logical_runs(runs):
                for t in r["traces"]:
                    w = trace_window(t)
                    if w:
                        print("INSERT INTO trace(run_id, source_id, rank, start_ns, end_ns)"
                              " SELECT id, 0, %d, %d, %d FROM run WHERE ext_id = '%s';"
                              % (w[2], int(w[0]), int(w[1]), r["id"]))
        return
    out = {name: analyse(runs, a.metric, a.axis, not a.no_windows)
           for name, runs in load_runs(a.root).items()}
    json.dump({"sweeps": out}, sys.stdout, indent=1, default=lambda o: None)


if __name__ == "__main__":
    main()
