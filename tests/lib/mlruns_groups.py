#!/usr/bin/python3
"""mlruns_groups.py — one MLflow experiment holding labelled groups of real
runs, made from a bundled sweep, for the selector, grouping and history
tests (tests/e2e/select.sh, tests/e2e/history.sh).

  mlruns_groups.py SRC_EXPERIMENT_DIR DEST_MLRUNS --exp-id ID --name NAME
      --runs GLOB --key param.NAME|tag.NAME --labels L1,L2,...
      [--slow LABEL=FACTOR ...] [--noise SEED] [--per-group K]

Every group (label) gets K runs (default: as many as GLOB picks), copies of
the source runs whose run_name matches GLOB (meta.yaml, params, tags,
metrics; not artifacts, so no traces), with new run ids (the same on
every build: uuid5 of experiment, label and copy), the label as a
param or tag KEY, a tag commit_time, and start/metric times moved one hour
per group so the groups follow each other in time.

--slow LABEL=FACTOR multiplies every epoch_time_s of that group's runs by
FACTOR (throughput divided by it): a known slowdown.

--noise SEED multiplies each copied run's epoch_time_s by a factor drawn
(Python's random, seeded) from the picked runs' own run-to-run spread:
each finished run's median epoch time (epoch 0 left out) over the median
of its configuration's runs (same run_name) — real relative noise of that
configuration, so groups of copies differ as real repeats do. Without
--noise the copies are exact.
"""
import argparse
import fnmatch
import os
import random
import statistics
import uuid

HOUR_MS = 3600 * 1000


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            if ':' in line:
                k, v = line.split(':', 1)
                meta[k.strip()] = v.strip()
    return meta


def read_metric(path):
    rows = []
    with open(path) as f:
        for line in f:
            ts, val, step = line.split()
            rows.append((int(ts), float(val), int(step)))
    return rows


def source_runs(src, glob):
    runs = []
    for rid in sorted(os.listdir(src)):
        d = os.path.join(src, rid)
        if not os.path.isfile(os.path.join(d, 'meta.yaml')):
            continue
        meta = read_meta(os.path.join(d, 'meta.yaml'))
        if meta.get('status') == '3' and fnmatch.fnmatch(meta.get('run_name', ''), glob):
            runs.append((rid, d, meta))
    return runs


def run_value(d):
    """The run's median epoch time without epoch 0 (amdahl's default rule)."""
    rows = read_metric(os.path.join(d, 'metrics', 'epoch_time_s'))
    kept = [v for _, v, step in rows if step > 0] or [v for _, v, _ in rows]
    return statistics.median(kept)


def noise_pool(src, glob):
    """Each finished picked run's value over its configuration's median."""
    by_name = {}
    for _, d, meta in source_runs(src, glob):
        if os.path.isfile(os.path.join(d, 'metrics', 'epoch_time_s')):
            by_name.setdefault(meta['run_name'], []).append(run_value(d))
    pool = []
    for vals in by_name.values():
        med = statistics.median(vals)
        pool += [v / med for v in vals]
    return pool


def copy_run(d, meta, dest, exp_id, key, label, j, shift_ms, factor):
    # The id follows from the experiment, the label and the copy's place,
    # so every build of a store holds the same ids in the same order (a
    # random id changed the runs' order, and with it the bootstrap draws).
    rid = uuid.uuid5(uuid.NAMESPACE_URL, 'amdahl-test/%s/%s/%d' % (exp_id, label, j)).hex
    out = os.path.join(dest, rid)
    for sub in ('metrics', 'params', 'tags'):
        os.makedirs(os.path.join(out, sub))
    with open(os.path.join(d, 'meta.yaml')) as f:
        text = f.read()
    text = text.replace(meta['run_id'], rid)
    text = text.replace("experiment_id: '%s'" % meta['experiment_id'],
                        "experiment_id: '%s'" % exp_id)
    for k in ('start_time', 'end_time'):
        if meta.get(k, '').isdigit():
            text = text.replace('%s: %s' % (k, meta[k]),
                                '%s: %d' % (k, int(meta[k]) + shift_ms))
    with open(os.path.join(out, 'meta.yaml'), 'w') as f:
        f.write(text)
    for sub in ('params', 'tags'):
        for name in os.listdir(os.path.join(d, sub)):
            with open(os.path.join(d, sub, name)) as f, \
                 open(os.path.join(out, sub, name), 'w') as g:
                g.write(f.read())
    kind, name = key.split('.', 1)
    with open(os.path.join(out, 'params' if kind == 'param' else 'tags', name), 'w') as g:
        g.write(label)
    with open(os.path.join(out, 'tags', 'commit_time'), 'w') as g:
        g.write(str(int(meta['start_time']) + shift_ms))
    for name in os.listdir(os.path.join(d, 'metrics')):
        rows = read_metric(os.path.join(d, 'metrics', name))
        with open(os.path.join(out, 'metrics', name), 'w') as g:
            for ts, v, step in rows:
                if name == 'epoch_time_s':
                    v *= factor
                elif name.startswith('throughput'):
                    v /= factor
                g.write('%d %r %d\n' % (ts + shift_ms, v, step))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('dest')
    ap.add_argument('--exp-id', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('--runs', required=True)
    ap.add_argument('--key', required=True)
    ap.add_argument('--labels', required=True)
    ap.add_argument('--slow', action='append', default=[])
    ap.add_argument('--noise', type=int)
    ap.add_argument('--per-group', type=int)
    a = ap.parse_args()
    slow = {s.split('=')[0]: float(s.split('=')[1]) for s in a.slow}
    runs = source_runs(a.src, a.runs)
    if not runs:
        raise SystemExit('no finished run matches %s in %s' % (a.runs, a.src))
    rng = random.Random(a.noise) if a.noise is not None else None
    pool = noise_pool(a.src, a.runs) if rng else None
    exp = os.path.join(a.dest, a.exp_id)
    os.makedirs(exp)
    with open(os.path.join(exp, 'meta.yaml'), 'w') as f:
        f.write("artifact_location: 'file:///tmp/mlruns/%s'\ncreation_time: 0\n"
                "experiment_id: '%s'\nlast_update_time: 0\nlifecycle_stage: active\n"
                "name: %s\n" % (a.exp_id, a.exp_id, a.name))
    per = a.per_group or len(runs)
    for g, label in enumerate(a.labels.split(',')):
        for j in range(per):
            rid, d, meta = runs[j % len(runs)]
            factor = slow.get(label, 1.0) * (rng.choice(pool) if rng else 1.0)
            copy_run(d, meta, exp, a.exp_id, a.key, label, j, g * HOUR_MS, factor)


if __name__ == '__main__':
    main()
