#!/usr/bin/python3
"""trace_oracle.py — an independent reading of a PyTorch profiler trace
(json + gzip + decimal only: the whole document in memory, full sorts,
interval-set algebra) printing the numbers amdahl stores, one fact per
line, in the order tests/e2e/trace.sh prints them from the store:

  trace RANK WORLD EVENTS START_NS END_NS HAS_GPU
  phase NAME NS            (compute communication memory idle other overlap)
  fraction F               (itwinai computation fraction, 9 decimals, or none)
  step N START_NS DUR_NS
  op NAME<TAB>CAT<TAB>COUNT TOTAL SELF MIN MAX
  coll NAME SEQ START_NS DUR_NS BYTES GROUP

Usage: trace_oracle.py FILE [RANK_HINT]
"""
import gzip
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal, ROUND_HALF_UP

DEVICE = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"}
MEMORY = {"gpu_memcpy", "gpu_memset", "memcpy", "memset"}
RUNTIME = {"cuda_runtime", "cuda_driver", "runtime", "driver"}
ITWINAI = re.compile(r".*(?:aten|\sat|c10|autograd)::")
DTYPE = {"Float": 4, "Double": 8, "Half": 2, "BFloat16": 2, "Long": 8, "Int": 4,
         "Short": 2, "Char": 1, "Byte": 1, "Bool": 1, "ComplexFloat": 8,
         "ComplexDouble": 16, "ComplexHalf": 4, "UInt16": 2, "UInt32": 4, "UInt64": 8,
         "Float8_e4m3fn": 1, "Float8_e5m2": 1, "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1}


def ns(v):
    return int((Decimal(v) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal)


def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(iv):
    return sum(e - s for s, e in union(iv) if e > s)


def rank_from_name(path):
    base = path.rsplit("/", 1)[-1]
    for word in ("rank", "worker"):
        for m in re.finditer(word + r"[_-]?(\d+)", base):
            return int(m.group(1))
    return None


def main():
    path = sys.argv[1]
    hint = int(sys.argv[2]) if len(sys.argv) > 2 else -1
    doc = load(path)
    events = doc["traceEvents"]
    base = int(doc.get("baseTimeNanoseconds", 0))
    dist = doc.get("distributedInfo", {})
    rank = dist.get("rank")
    if rank is None:
        rank = rank_from_name(path)
    if rank is None:
        rank = hint
    world = dist.get("world_size", -1)

    ops = {}        # (name, cat) -> [count, total, self, min, max]
    tracks = defaultdict(list)
    gpu = {"compute": [], "comm": [], "memory": []}
    steps = {}
    colls = []
    window = None
    for seq, e in enumerate(events):
        if not isinstance(e, dict) or e.get("ph") != "X" or "ts" not in e:
            continue
        name, cat = e.get("name", ""), e.get("cat")
        lc = (cat or "").lower()
        s = ns(e["ts"])
        d = max(ns(e.get("dur", 0)), 0)
        window = (s, s + d) if window is None else (min(window[0], s), max(window[1], s + d))
        o = ops.setdefault((name, cat), [0, 0, 0, None, 0])
        o[0] += 1
        o[1] += d
        o[3] = d if o[3] is None else min(o[3], d)
        o[4] = max(o[4], d)
        # a thread's runtime calls nest in its ops (one stack per thread, so
        # an op's self time leaves out every call made inside it); GPU
        # annotations are a track of their own beside the kernels
        lane = "g" if lc == "gpu_user_annotation" else "hr"
        tracks[(str(e.get("pid")), str(e.get("tid")), lane)].append((s, -(s + d), seq, name, cat))
        device = lc in DEVICE
        if device:
            cls = ("comm" if name.lower().startswith("nccl") else
                   "memory" if lc in MEMORY or name.startswith(("Memcpy", "Memset")) else "compute")
            gpu[cls].append((s, s + d))
        m = re.fullmatch(r"ProfilerStep#(-?\d+)", name)
        if m and not device and lc != "gpu_user_annotation":
            n = int(m.group(1))
            if n not in steps or s < steps[n][0]:
                steps[n] = (s, d)
        args = e.get("args", {}) or {}
        on_gpu = device and name.lower().startswith("nccl")
        host = not device and (name == "record_param_comms" or name.startswith(("gloo:", "nccl:")))
        if on_gpu or host:
            nel = max(args.get("In msg nelems", -1), args.get("Out msg nelems", -1))
            size = DTYPE.get(args.get("dtype"), 0)
            nbytes = args["Msg Size"] if "Msg Size" in args else nel * size if nel >= 0 and size else -1
            colls.append((args.get("Collective name") or name, s, d, nbytes,
                          args.get("Group size", -1), on_gpu))

    # self times and top-level aten/collective thread-time, per track
    cpu_aten = cpu_comm = 0
    for evs in tracks.values():
        evs.sort()
        stack = []  # [start, end, key, child, in_aten, in_comm]

        def close():
            st = stack.pop()
            ops[st[2]][2] += max(st[1] - st[0] - st[3], 0)
        for s, negend, _, name, cat in evs:
            end = -negend
            while stack and stack[-1][1] <= s:
                close()
            parent = stack[-1] if stack else None
            if parent:
                lo, hi = max(s, parent[0]), min(end, parent[1])
                parent[3] += max(hi - lo, 0)
            dev = (cat or "").lower() in DEVICE
            aten = name.startswith("aten::") and not dev
            comm = (name == "record_param_comms" or name.startswith(("gloo:", "nccl:"))) and not dev
            if aten and not (parent and parent[4]):
                cpu_aten += end - s
            if comm and not (parent and parent[5]):
                cpu_comm += end - s
            stack.append([s, end, (name, cat), 0, aten or bool(parent and parent[4]),
                          comm or bool(parent and parent[5])])
        while stack:
            close()

    has_gpu = any(gpu.values())
    win = window[1] - window[0] if window else 0
    phase = dict.fromkeys(["compute", "communication", "memory", "idle", "other", "overlap"], 0)
    if has_gpu:
        c, m, mem = gpu["compute"], gpu["comm"], gpu["memory"]
        lc, lm, lcm, lall = length(c), length(m), length(c + m), length(c + m + mem)
        phase.update(compute=lc, communication=lcm - lc, memory=lall - lcm,
                     overlap=lc + lm - lcm, idle=max(win - lall, 0))
    else:
        phase.update(compute=cpu_aten, communication=cpu_comm,
                     other=max(win - cpu_aten - cpu_comm, 0))

    num = den = 0
    for (name, cat), o in ops.items():
        if name.startswith("ProfilerStep"):
            continue
        dev = (cat or "").lower() in DEVICE
        if (not dev) if has_gpu else cat == "Trace":
            continue
        den += o[2]
        if ITWINAI.match(name):
            num += o[2]

    start, end = (window[0] + base, window[1] + base) if window else (0, 0)
    print(f"trace {rank} {world} {len(events)} {start} {end} {int(has_gpu)}")
    for k, v in phase.items():
        print(f"phase {k} {v}")
    print(f"fraction {num / den:.9f}" if den else "fraction none")
    for n in sorted(steps):
        print(f"step {n} {steps[n][0] + base} {steps[n][1]}")
    for (name, cat), o in sorted(ops.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        print(f"op {name}\t{cat or ''}\t{o[0]} {o[1]} {o[2]} {o[3]} {o[4]}")
    kept = sorted((c for c in colls if c[5] == has_gpu), key=lambda c: (c[0].encode(), c[1]))
    seq = {}
    for name, s, d, nbytes, group, _ in kept:
        seq[name] = seq.get(name, -1) + 1
        print(f"coll {name} {seq[name]} {s + base} {d} {nbytes} {group}")


if __name__ == "__main__":
    main()
