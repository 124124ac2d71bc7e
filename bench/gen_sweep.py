#!/usr/bin/python3
"""gen_sweep.py OUT RUNS RANKS [METRICS STEPS] — a sweep of RUNS MLflow runs with RANKS
PyTorch rank traces each, made from the real n=8 DDP run of
testdata/cpu-strong-scaling (run 05cf3491…, ddp-n8):

  - every run is a copy of its meta.yaml, params and metrics with a new
    run id, run name ddp-n<RANKS>, repeat = its number, world_size and
    num_gpus = RANKS, and every time (start, end, metric timestamps)
    shifted past the previous run;
  - rank k's trace is real rank k % 8's with distributedInfo saying rank k
    of RANKS and its "ts" shifted by k ms (one template per rank,
    compressed once); each file is that template behind a small gzip
    member opening the JSON object with a key naming its run and rank
    ({"bench_copy": "<run>/<rank>", ...), so that every file's bytes and
    sha256 differ without recompressing 0.6 MB per file.

GEN_SWEEP_FIRST (environment, default 0) numbers the runs from there, so
that calls with different RANKS fill one store's sweep at several n
(tests/e2e/scaling_runs.sh).

With METRICS and STEPS (bench/clickhouse_scale.sh's points): no traces,
but METRICS metric files per run of STEPS points each, the real run's
three metrics (their values and time gaps repeated in order) under
their names and then name_2, name_3, ...

Written at bench time into /tmp; never committed. Prints the bytes written."""
import glob
import gzip
import os
import re
import sys

SRC = "testdata/cpu-strong-scaling/mlruns/4/05cf34910a624beb8c790ed12d3403cf"


def templates(ranks):
    real = {}
    for f in glob.glob(f"{SRC}/artifacts/traces/rank*.pt.trace.json.gz"):
        real[int(re.match(r"rank(\d+)\.", os.path.basename(f)).group(1))] = gzip.open(f).read()
    out = []
    for k in range(ranks):
        body = real[k % len(real)].lstrip()
        assert body[:1] == b"{"
        body = re.sub(rb'("rank": )\d+(, "world_size": )\d+',
                      lambda m: m.group(1) + str(k).encode() + m.group(2) + str(ranks).encode(), body, 1)
        body = re.sub(rb'("ts": ?)(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + k * 1000).encode(), body)
        out.append(gzip.compress(body[1:], 6))
    return out


def run_files(i, ranks, span):
    """{relative path: bytes} of run i's MLflow files."""
    rid = f"{i:032x}"
    shift = i * span
    files = {}
    for path in glob.glob(f"{SRC}/**/*", recursive=True):
        rel = os.path.relpath(path, SRC)
        if os.path.isdir(path) or rel.startswith("artifacts"):
            continue
        text = open(path).read()
        if rel == "meta.yaml":
            text = re.sub(r"05cf34910a624beb8c790ed12d3403cf", rid, text)
            text = re.sub(r"(start_time|end_time): (\d+)", lambda m: f"{m.group(1)}: {int(m.group(2)) + shift}", text)
            text = text.replace("run_name: ddp-n8", f"run_name: ddp-n{ranks}")
        elif rel.startswith("metrics/"):
            text = "".join(f"{int(ts) + shift} {v} {s}\n" for ts, v, s in (x.split() for x in text.splitlines()))
        elif rel in ("params/world_size", "params/num_gpus"):
            text = str(ranks)
        elif rel == "params/repeat":
            text = str(i)
        elif rel == "tags/mlflow.runName":
            text = f"ddp-n{ranks}"
        files[f"{rid}/{rel}"] = text.encode()
    return rid, files


def long_metrics(n_keys, steps):
    """{relative path: bytes} of n_keys metric files of steps points."""
    real = sorted(glob.glob(f"{SRC}/metrics/*"))
    out = {}
    for j in range(n_keys):
        pts = [x.split() for x in open(real[j % len(real)]).read().splitlines()]
        gaps = [int(b[0]) - int(a[0]) for a, b in zip(pts, pts[1:])] or [1000]
        ts, lines = int(pts[0][0]), []
        for k in range(steps):
            lines.append(f"{ts} {pts[k % len(pts)][1]} {k}\n")
            ts += gaps[k % len(gaps)]
        name = os.path.basename(real[j % len(real)]) + ("" if j < len(real) else f"_{j // len(real) + 1}")
        out[f"metrics/{name}"] = "".join(lines).encode()
    return out


def main():
    out, runs, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    points = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else None
    series = long_metrics(*points) if points else {}
    meta = open(f"{SRC}/meta.yaml").read()
    start, end = (int(re.search(rf"{k}: (\d+)", meta).group(1)) for k in ("start_time", "end_time"))
    exp = f"{out}/mlruns/4"
    os.makedirs(exp, exist_ok=True)
    open(f"{exp}/meta.yaml", "w").write(open(os.path.dirname(SRC) + "/meta.yaml").read())
    temps = [] if points else templates(ranks)
    total = 0
    first = int(os.environ.get("GEN_SWEEP_FIRST", "0"))
    for i in range(first, first + runs):
        rid, files = run_files(i, ranks, end - start + 60000)
        if points:  # the same series, times as written, in every run
            files = {k: v for k, v in files.items() if "/metrics/" not in k}
            files.update({f"{rid}/{k}": v for k, v in series.items()})
        for rel, data in files.items():
            os.makedirs(os.path.dirname(f"{exp}/{rel}"), exist_ok=True)
            open(f"{exp}/{rel}", "wb").write(data)
            total += len(data)
        os.makedirs(f"{exp}/{rid}/artifacts/traces", exist_ok=True)
        for k, t in enumerate(temps):
            head = gzip.compress(b'{"bench_copy": "%s/%d", ' % (rid.encode(), k), 6)
            with open(f"{exp}/{rid}/artifacts/traces/rank{k}.{i}.pt.trace.json.gz", "wb") as f:
                f.write(head)
                f.write(t)
            total += len(head) + len(t)
    print(total)


if __name__ == "__main__":
    main()
