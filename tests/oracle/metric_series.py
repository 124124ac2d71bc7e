#!/usr/bin/python3
"""metric_series.py — an independent reader of amdahl's packed metric
series (lib/store/packed/metric_pack.h: each metric_series row's `points` blob
holds n little-endian int64 steps, then n int64 times in ms, then n
float64 values; n = length / 24), decoded here with numpy, and of an
MLflow file store's metric files, for tests/e2e/metric_layout.sh.

  metric_series.py store STORE   every point: ext_id key step ts value
                                 (value as float.hex, NaN as 'nan'), sorted
  metric_series.py files DIR     the same from DIR's metric files
                                 (lines "ts value step"; run = directory)
  metric_series.py check STORE   'ok', or what is wrong with the rows
                                 (n against the blob's length)
"""
import os
import sqlite3
import sys

import numpy as np


def fmt(ext, key, step, ts, value):
    v = 'nan' if value != value else float(value).hex()
    return f"{ext}\t{key}\t{int(step)}\t{int(ts)}\t{v}"


def store_points(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT r.ext_id, d.s, m.n, m.points FROM metric_series m"
                      " JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id")
    out = []
    for ext, key, n, blob in rows:
        a = np.frombuffer(blob, dtype='<i8', count=n)
        t = np.frombuffer(blob, dtype='<i8', count=n, offset=8 * n)
        v = np.frombuffer(blob, dtype='<f8', count=n, offset=16 * n)
        out += [fmt(ext, key, a[i], t[i], v[i]) for i in range(n)]
    return out


def file_points(top):
    out = []
    for dirpath, _, files in os.walk(top):
        if os.sep + 'metrics' not in dirpath + os.sep:
            continue
        run_dir = dirpath[:dirpath.index(os.sep + 'metrics')]
        ext = os.path.basename(run_dir)
        for f in files:
            p = os.path.join(dirpath, f)
            key = os.path.relpath(p, os.path.join(run_dir, 'metrics'))
            for line in open(p):
                parts = line.split()
                if len(parts) >= 2:
                    step = int(parts[2]) if len(parts) > 2 else 0
                    out.append(fmt(ext, key, step, int(parts[0]), float(parts[1])))
    return out


def check(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    bad = db.execute("SELECT count(*) FROM metric_series WHERE length(points) <> 24 * n").fetchone()[0]
    return 'ok' if bad == 0 else f'{bad} rows whose n is not length/24'


if __name__ == '__main__':
    what, arg = sys.argv[1], sys.argv[2]
    if what == 'check':
        print(check(arg))
    else:
        print('\n'.join(sorted(store_points(arg) if what == 'store' else file_points(arg))))
