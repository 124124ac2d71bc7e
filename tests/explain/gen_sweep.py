#!/usr/bin/env python3
"""gen_sweep.py — the ground truth of `amdahl explain` (issue 34): a
seeded generator of strong-scaling sweeps in MLflow's file layout whose
runs carry one Kineto trace per rank (CPU, gloo collectives), with
known data transfer, an injected straggler, compute that does not shrink,
idle gaps and noise; it writes truth.json beside mlruns/ with what the
budget must find (rank-seconds per traced step, shares of rank-time).

Model of one traced step, identical on every rank's clock:
  idle I_r (data loading) | then for each of K collectives:
  compute W/(n*K) + s/K (+ d on the straggler rank) with noise,
  arrive at gloo:all_reduce, which ends `transfer(n)` after the last
  arrival on every rank; the step ends at the last collective's end.
Truth per run (rank-seconds per step; arrival_spread, the mean of the
last minus the first arrival at an all-reduce, in s): transfer = n*K*transfer(n),
wait = sum over ranks and collectives of (last arrival - own arrival),
imbalance = each rank's compute above the others' median (K*d on the
straggler, plus what noise adds), compute growth = the rest of the
compute above the base's, idle = sum of I_r above the base's.

With --gpu the same timeline is written as a CUDA trace: the compute as
GEMM kernels on stream 7, each all-reduce as an NCCL kernel on stream 20
(which, as NCCL's does, starts on launch and waits inside for the last
rank); the idle gap is time with no kernel.

usage: gen_sweep.py OUT --seed S [--ns 1,2,4,8] [--repeats R] [--gpu]
                        [--straggler RANK|last|none] [--delay-ms D] [--steps N]
                        [--serial-op] [--subgroup] [--nsys]
"""
import argparse
import gzip
import json
import os
import random

K = 4            # all-reduces per step
W_MS = 160.0     # parallel compute per step at n = 1 (ms), shrinks as 1/n
S_MS = 4.0       # serial compute per step and rank (ms), does not shrink
IDLE_MS = 1.5    # data loading before the first compute of a step (ms)
NOISE = 0.02     # relative sd of every compute segment and idle gap


def transfer_ms(n):
    return 0.02 if n == 1 else 0.6 + 0.35 * (n - 1)


def median(v):
    v = sorted(v)
    m = len(v)
    return 0 if not m else v[m // 2] if m % 2 else (v[m // 2 - 1] + v[m // 2]) / 2


def op(name, cat, tid, ts, dur, args=None):
    """An event; times are whole ns given in µs, so that no rounding makes
    one event overlap the next on its thread."""
    return {"ph": "X", "cat": cat, "name": name, "pid": 100, "tid": tid,
            "ts": ts / 1000, "dur": dur / 1000, "args": args or {}}


GEMM = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"
SERIAL = {False: "aten::copy_", True: "elementwise_kernel_copy_serial"}  # --serial-op


def compute_ev(gpu, ts, dur, name=None):
    if gpu:  # a GEMM kernel on the compute stream
        return op(name or GEMM, "kernel", 7, ts, dur, {"device": 0, "stream": 7, "correlation": 1})
    return op(name or "aten::mm", "cpu_op", 101, ts, dur)


def coll_ev(gpu, n, ts, dur, pg=None):
    """pg: (name, size) written on NCCL kernels too, as PyTorch 2.x does
    (--subgroup only, so that the other sweeps stay as they were)."""
    if gpu:  # NCCL's kernel on its own stream: it waits inside for the last rank
        args = {"device": 0, "stream": 20, "correlation": 2}
        if pg:
            args.update({"Collective name": "allreduce", "Process Group Name": pg[0],
                         "Group size": pg[1]})
        return op("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                  "kernel", 20, ts, dur, args)
    return op("gloo:all_reduce", "user_annotation", 101, ts, dur,
              {"Collective name": "allreduce", "Process Group Name": pg[0] if pg else "0",
               "Group size": pg[1] if pg else n})


SUB_MS = 1.0  # --subgroup: compute before the sub-group's all-reduce (ms)


def subgroup_allreduce(rng, n, gpu, ev, cur, work, truth):
    """--subgroup: after the step's all-reduces, ranks 0..n/2-1 compute
    SUB_MS and all-reduce in process group "1" (the world's is "0"),
    under the same collective name: by name alone the k-th call of rank 0
    and of rank n-1 are different collectives. The others idle to the
    step's end."""
    members = range(n // 2)
    arrive = []
    for r in members:
        c = round(SUB_MS * 1e6 * max(0.2, rng.gauss(1, NOISE)))
        work[r] += c
        ev[r].append(compute_ev(gpu, cur[r], c))
        arrive.append(cur[r] + c)
    last = max(arrive)
    end = last + round(transfer_ms(n // 2) * 1e6)
    for r in members:
        truth["wait"] += last - arrive[r]
        truth["transfer"] += end - last
        ev[r].append(coll_ev(gpu, n, arrive[r], end - arrive[r], ("1", n // 2)))
        cur[r] = end
    for r in range(n):
        truth["idle"] += end - cur[r]
    truth["sub_instances"] += 1
    return last - min(arrive)


def run_traces(rng, n, steps, straggler, delay_ms, gpu=False, serial_op=False, subgroup=False):
    """One run: per rank its events (µs from a common 0) and the truth.
    serial_op: each compute segment is written as two ops, the part that
    shrinks as 1/n (aten::mm / GEMM) then the serial part (SERIAL), with
    the same draws; truth["regions"] has each op's rank-time per step."""
    ev = [[] for _ in range(n)]
    regions = {}
    truth = dict(transfer=0.0, wait=0.0, injected=0.0, idle=0.0, R=0.0, sub_instances=0)
    spread = []  # per all-reduce: the last arrival minus the first (ns)
    work = [0] * n  # each rank's compute (ns), the straggler's extra included
    t = 1000000  # ns
    for k in range(steps):
        start = t
        cur = []
        for r in range(n):
            idle = round(IDLE_MS * 1e6 * max(0.2, rng.gauss(1, NOISE)))
            cur.append(start + idle)
            truth["idle"] += idle
        for j in range(K):
            arrive = []
            for r in range(n):
                c = round((W_MS / (n * K) + S_MS / K) * 1e6 * max(0.2, rng.gauss(1, NOISE)))
                if r == straggler:
                    c += round(delay_ms * 1e6)
                    truth["injected"] += round(delay_ms * 1e6)
                work[r] += c
                if serial_op:
                    # the serial share of the noised segment (the delay stays in the first op)
                    own = c - (round(delay_ms * 1e6) if r == straggler else 0)
                    ser = round(own * S_MS / (W_MS / n + S_MS))
                    for name, ts, dur in ((None, cur[r], c - ser), (SERIAL[gpu], cur[r] + c - ser, ser)):
                        ev[r].append(compute_ev(gpu, ts, dur, name))
                        key = name or (GEMM if gpu else "aten::mm")
                        regions[key] = regions.get(key, 0) + dur
                else:
                    ev[r].append(compute_ev(gpu, cur[r], c))
                arrive.append(cur[r] + c)
            last = max(arrive)
            spread.append(last - min(arrive))
            end = last + round(transfer_ms(n) * 1e6)
            for r in range(n):
                truth["wait"] += last - arrive[r]
                truth["transfer"] += end - last
                ev[r].append(coll_ev(gpu, n, arrive[r], end - arrive[r], ("0", n) if subgroup else None))
                cur[r] = end
        if subgroup and n >= 4:
            spread.append(subgroup_allreduce(rng, n, gpu, ev, cur, work, truth))
        t = max(cur) + 10000
        for r in range(n):
            ev[r].append(op("ProfilerStep#%d" % (k + 2), "user_annotation", 101, start, t - start))
        truth["R"] += n * (t - start)
        t += 200000  # between profiled steps: not traced
    # imbalance as docs/explain.md defines it, on the known compute: each
    # rank's compute above the median of the others' (the injected delay,
    # and the noise's own small share); the rest is the balanced compute
    truth["imbalance"] = sum(max(0, work[r] - median(work[:r] + work[r + 1:]))
                             for r in range(n)) if n > 1 else 0
    truth["compute"] = sum(work) - truth["imbalance"]
    sub_instances = truth.pop("sub_instances")
    per_step = {key: v / steps * 1e-9 for key, v in truth.items()}
    per_step["instances"] = steps * K + sub_instances
    # stats' "straggler ms": the mean spread of arrivals (s), not per step
    per_step["arrival_spread"] = sum(spread) / len(spread) * 1e-9 if n > 1 else None
    if serial_op:
        per_step["regions"] = {k: v / steps * 1e-9 for k, v in regions.items()}
    return ev, per_step


def write_trace(path, rank, n, events, base_ns, gpu=False):
    doc = {"schemaVersion": 1,
           "distributedInfo": {"backend": "nccl" if gpu else "gloo", "rank": rank, "world_size": n},
           "baseTimeNanoseconds": base_ns, "displayTimeUnit": "ms",
           "traceEvents": sorted(events, key=lambda e: e["ts"])}
    with gzip.open(path, "wt") as f:
        json.dump(doc, f)


# --nsys: the tables an Nsight Systems SQLite export has for this
# timeline, with the columns (and NOT NULL constraints) of `nsys export
# --type sqlite` as NVIDIA's "SQLite Export Schema Reference" documents
# them (docs.nvidia.com/nsight-systems/2021.5/nsys-exporter/exported_data.html;
# copied from the 2022.2 export in ../shared/data/public/nsys), trimmed to
# the columns amdahl reads plus the NOT NULL ones. A process's rows carry
# its globalPid (pid << 24, "Serialized process and thread identifiers")
# or globalTid (globalPid | tid); times are ns since the session start,
# TARGET_INFO_SESSION_START_TIME.utcEpochNs on the Unix clock.
NSYS_SCHEMA = """
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
 deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
 correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
 shortName INTEGER NOT NULL, mangledName INTEGER, registersPerThread INTEGER NOT NULL,
 gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
 blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
 staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
 localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
 rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
 endGlobalTid INTEGER, textId INTEGER REFERENCES StringIds(id), domainId INTEGER);
"""


def write_nsys(path, events, session_ns):
    """One export: rank r is process 4000 + r on GPU r; its kernels (GEMM
    and NCCL, streams 7 and 20) and its ProfilerStep#k NVTX push/pop
    ranges (eventType 59) from events[r] (the Kineto events above)."""
    import sqlite3
    db = sqlite3.connect(path)
    db.executescript(NSYS_SCHEMA)
    ids = {}

    def sid(s):
        if s not in ids:
            ids[s] = len(ids) + 1
            db.execute("INSERT INTO StringIds VALUES (?, ?)", (ids[s], s))
        return ids[s]
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '', '')", (session_ns,))
    for r, ev in enumerate(events):
        pid = (4000 + r) << 24
        db.execute("INSERT INTO TARGET_INFO_GPU VALUES (0, ?, 'NVIDIA H100 80GB HBM3')", (r,))
        for e in ev:
            start, end = round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000)
            if e["cat"] == "kernel":
                short = e["name"].split("(")[0]
                db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,1,?,0,?,?,?,NULL,"
                           "32,1,1,1,128,1,1,0,0,0,0,0)",
                           (start, end, r, e["tid"], pid, sid(e["name"]), sid(short)))
            else:
                db.execute("INSERT INTO NVTX_EVENTS VALUES (?,?,59,NULL,NULL,NULL,?,?,?,NULL,0)",
                           (start, end, e["name"], pid | 1, pid | 1))
    db.commit()
    db.close()


def write_run(root, exp, rid, n, rep, strategy, step_s, start_ms):
    d = os.path.join(root, exp, rid)
    for sub in ("params", "metrics", "tags", "artifacts/traces"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    params = {"world_size": n, "strategy": strategy, "repeat": rep, "backend": "gloo",
              "device": "cpu", "global_batch_size": 256}
    for k, v in params.items():
        with open(os.path.join(d, "params", k), "w") as f:
            f.write(str(v))
    with open(os.path.join(d, "tags", "mlflow.runName"), "w") as f:
        f.write("%s-n%d-r%d" % (strategy, n, rep))
    with open(os.path.join(d, "metrics", "epoch_time_s"), "w") as f:
        for e in range(4):
            f.write("%d %r %d\n" % (start_ms + 1000 * (e + 1), step_s * 50, e))
    with open(os.path.join(d, "meta.yaml"), "w") as f:
        f.write("artifact_uri: 'file://%s/artifacts'\nend_time: %d\nentry_point_name: ''\n"
                "experiment_id: '%s'\nlifecycle_stage: active\nrun_id: %s\nrun_name: %s-n%d-r%d\n"
                "run_uuid: %s\nsource_name: ''\nsource_type: 4\nsource_version: ''\n"
                "start_time: %d\nstatus: 3\ntags: []\nuser_id: gen\n"
                % (d, start_ms + 6000, exp, rid, strategy, n, rep, rid, start_ms))
    return os.path.join(d, "artifacts/traces")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--ns", default="1,2,4,8")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--straggler", default="last")
    ap.add_argument("--delay-ms", type=float, default=2.5)
    ap.add_argument("--name", default="explain-truth")
    ap.add_argument("--skew-ms", type=float, default=0.0,
                    help="the last rank's clock runs this far ahead (its baseTimeNanoseconds)")
    ap.add_argument("--serial-op", action="store_true",
                    help="write the serial compute as its own op (%s) after the one that shrinks"
                    % SERIAL[False])
    ap.add_argument("--subgroup", action="store_true",
                    help="ranks 0..n/2-1 also all-reduce in process group 1 each step (n >= 4)")
    ap.add_argument("--nsys", action="store_true",
                    help="the --gpu timeline as one Nsight Systems SQLite export per run (a process a rank)")
    ap.add_argument("--gpu", action="store_true",
                    help="CUDA/NCCL-like traces: GEMM kernels and NCCL all-reduce kernels on streams")
    a = ap.parse_args()
    a.gpu = a.gpu or a.nsys
    rng = random.Random(a.seed)
    root = os.path.join(a.out, "mlruns")
    exp = "7"
    os.makedirs(os.path.join(root, exp), exist_ok=True)
    with open(os.path.join(root, exp, "meta.yaml"), "w") as f:
        f.write("artifact_location: 'file://%s/%s'\ncreation_time: 1795000000000\n"
                "experiment_id: '%s'\nlast_update_time: 1795000000000\n"
                "lifecycle_stage: active\nname: %s\n" % (root, exp, exp, a.name))
    truth = {"seed": a.seed, "runs": []}
    if a.serial_op:  # each op's per-rank time per step, f(n) = inv / n + const (s), no noise
        truth["region_models"] = {GEMM if a.gpu else "aten::mm": {"inv": W_MS / 1e3, "const": 0.0},
                                  SERIAL[a.gpu]: {"inv": 0.0, "const": S_MS / 1e3}}
    start_ms = 1795000000000
    for n in [int(x) for x in a.ns.split(",")]:
        for rep in range(a.repeats):
            straggler = -1 if a.straggler == "none" or n == 1 else \
                n - 1 if a.straggler == "last" else int(a.straggler) % n
            ev, t = run_traces(rng, n, a.steps, straggler, a.delay_ms, a.gpu, a.serial_op, a.subgroup)
            rid = "%08x%024x" % (a.seed & 0xffffffff, n * 1000 + rep)
            tdir = write_run(root, exp, rid, n, rep, "ddp", t["R"] / n, start_ms)
            base_ns = start_ms * 1000000 + rng.randrange(0, 10**6) * 1000 - 1000000
            if a.nsys:
                write_nsys(os.path.join(tdir, "report.%d.sqlite" % rep), ev, base_ns)
            for r in range(n if not a.nsys else 0):
                skew = round(a.skew_ms * 1e6) if r == n - 1 and n > 1 else 0
                write_trace(os.path.join(tdir, "rank%d.%d.pt.trace.json.gz" % (r, rep)), r, n,
                            ev[r], base_ns + skew, a.gpu)
            truth["runs"].append(dict(n=n, repeat=rep, straggler=straggler, **t))
            start_ms += 60000
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
