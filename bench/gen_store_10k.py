#!/usr/bin/python3
"""gen_store_10k.py OUT SWEEPS RUNS STEPS — a team's store in one MLflow
SQLite backend file (OUT, an mlflow.db with MLflow 3.x's tables:
tests/fixtures/mlflow_forms.py's SCHEMA): SWEEPS experiments
"team-sweep-NNN" of RUNS runs each (500 × 20 = the issue's 10,000 runs),
every run the real n=8 DDP run of testdata/cpu-strong-scaling (its
params and tags; world_size, num_gpus and strategy varied over the
sweep: n = 1, 2, 4, 8, 16) with its three metrics lengthened to STEPS
points each (its own values and time gaps repeated), times shifted per
run. One file: `amdahl ingest` takes it as one unit, so the store is
built in seconds, not 10,000 round trips. Written at bench time into
/tmp; never committed. Prints the number of runs and metric points."""
import ast
import glob
import os
import sqlite3
import sys

# MLflow's table definitions, as the test fixture writes them (that
# script runs on import, so its SCHEMA is read out of its source)
_forms = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                      "mlflow_forms.py")
SCHEMA = next(ast.literal_eval(n.value) for n in ast.parse(open(_forms).read()).body
              if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "SCHEMA")

SRC = "testdata/cpu-strong-scaling/mlruns/4/05cf34910a624beb8c790ed12d3403cf"


def read_dir(d):
    return {os.path.basename(p): open(p).read().strip() for p in sorted(glob.glob(f"{d}/*"))}


def series(steps):
    """{key: [(ts_offset, value, step)]}: each real metric, lengthened."""
    out = {}
    for p in sorted(glob.glob(f"{SRC}/metrics/*")):
        pts = [x.split() for x in open(p).read().splitlines()]
        gaps = [int(b[0]) - int(a[0]) for a, b in zip(pts, pts[1:])] or [1000]
        ts, rows = 0, []
        for k in range(steps):
            rows.append((ts, float(pts[k % len(pts)][1]), k))
            ts += gaps[k % len(gaps)]
        out[os.path.basename(p)] = rows
    return out


def main():
    out, sweeps, runs, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    params, tags, pts = read_dir(f"{SRC}/params"), read_dir(f"{SRC}/tags"), series(steps)
    span = pts["epoch_time_s"][-1][0] + 60000
    t0 = 1795347736730
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.executescript(SCHEMA)
    npoints = 0
    for e in range(sweeps):
        db.execute("INSERT INTO experiments VALUES(?,?,?,?,?,?,'default')",
                   (100 + e, f"team-sweep-{e:03d}", f"file:///scratch/mlruns/{100 + e}", "active",
                    t0, t0))
        for i in range(runs):
            rid = f"{e + 1:08x}{i:024x}"  # not gen_sweep.py's ids (0..)
            n = 2 ** (i % 5)
            start = t0 + (e * runs + i) * span
            db.execute("INSERT INTO runs VALUES(?,?,'UNKNOWN','','',?,?,?,?,'',?,?,?,NULL)",
                       (rid, f"ddp-n{n}", "bench", "FINISHED", start, start + span - 60000,
                        "active", f"file:///scratch/mlruns/{100 + e}/{rid}/artifacts", 100 + e))
            p = dict(params, world_size=str(n), num_gpus=str(n), repeat=str(i // 5))
            db.executemany("INSERT INTO params VALUES(?,?,?)", [(k, v, rid) for k, v in p.items()])
            t = dict(tags, **{"mlflow.runName": f"ddp-n{n}"})
            db.executemany("INSERT INTO tags VALUES(?,?,?)", [(k, v, rid) for k, v in t.items()])
            for k, rows in pts.items():
                db.executemany("INSERT INTO metrics VALUES(?,?,?,?,?,0)",
                               [(k, v, start + ts, rid, s) for ts, v, s in rows])
                ts, v, s = rows[-1]
                db.execute("INSERT INTO latest_metrics VALUES(?,?,?,?,0,?)", (k, v, start + ts, s, rid))
                npoints += len(rows)
    db.commit()
    db.close()
    print(sweeps * runs, npoints)


if __name__ == "__main__":
    main()
