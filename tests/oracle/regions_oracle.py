#!/usr/bin/python3
"""regions_oracle.py — independent readings of what `amdahl regions FILE
--json -n 0` must say, one subcommand per profiler; each prints "ok" or
the differences.

  regions_oracle.py trace TRACE REGIONS_JSON
      the trace's ops and collectives as tests/oracle/trace_oracle.py
      reads them (its own JSON parsing), kinds from Kineto categories
  regions_oracle.py cprofile DUMP REGIONS_JSON
      every function as Python's pstats module reads the dump
  regions_oracle.py cprofile-print DUMP REGIONS_JSON
      the lines `python3 -m pstats DUMP` prints (sort tottime, stats)
  regions_oracle.py cprofile-callers DUMP STORE SOURCE_PATH
      the caller edges in the store (sqlite3) against pstats' callers
  regions_oracle.py keyavg TABLE REGIONS_JSON
      a torch key_averages().table() text, read by the rule's spans
  regions_oracle.py nsys EXPORT REGIONS_JSON
      an Nsight Systems SQLite export read with Python's sqlite3
  regions_oracle.py opavg CSV REGIONS_JSON
      itwinai's torch_profiling_averages.csv by Python's csv (CUDA µs)
  regions_oracle.py pyspy FORMAT FILE REGIONS_JSON
      py-spy functions (self: leaf samples, total: once per stack) as
      tests/oracle/pyspy_oracle.py reads the file, in ns of thread time
"""
import collections, csv, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = {"kernel": "kernel", "gpu_memcpy": "memcpy", "memcpy": "memcpy",
         "gpu_memset": "memset", "memset": "memset", "cuda_runtime": "cuda_api",
         "cuda_driver": "cuda_api", "runtime": "cuda_api", "driver": "cuda_api",
         "user_annotation": "nvtx", "gpu_user_annotation": "nvtx",
         "python_function": "function", "Trace": "step"}


def kind_of(cat, name):
    """The region kind of a trace op: the profiler's step annotations and
    its own span are steps, whatever their category."""
    if re.match(r"ProfilerStep#[0-9]", name):
        return "step"
    return KINDS.get(cat, "op")


def rows(path, device=False):
    got = {}
    for r in json.load(open(path))["regions"]:
        key = (r["source"], r["kind"], r["name"], r.get("file"), r.get("line"), r["rank"])
        if device:
            key += (r["device"],)
        if key in got:
            raise SystemExit(f"duplicate row {key}")
        got[key] = r
    return got


def compare(want, got, fields):
    bad = []
    for k, w in want.items():
        g = got.get(k)
        if g is None:
            bad.append(f"missing {k}")
            continue
        for f in fields:
            if g[f] != w[f]:
                bad.append(f"{k}: {f} {g[f]} != {w[f]}")
    for k in set(got) - set(want):
        bad.append(f"unexpected {k}")
    return "ok" if not bad else "\n".join(bad[:10] + [f"({len(bad)} differences)"])


def trace(path, got_path):
    out = subprocess.run([sys.executable, os.path.join(HERE, "trace_oracle.py"), path],
                         check=True, capture_output=True, text=True).stdout
    want = collections.defaultdict(lambda: {"calls": 0, "self_ns": 0, "total_ns": 0,
                                            "bytes": None})
    rank = None
    for line in out.splitlines():
        if line.startswith("trace "):
            rank = int(line.split()[1])
            rank = None if rank < 0 else rank
        elif line.startswith("op "):
            name, cat, nums = line[3:].split("\t")
            count, total, self_ = (int(x) for x in nums.split()[:3])
            w = want[("torch", kind_of(cat, name), name, None, None, rank)]
            w["calls"] += count
            w["self_ns"] += self_
            w["total_ns"] += total
        elif line.startswith("coll "):
            f = line.split()
            name, dur, nbytes = " ".join(f[1:-5]), int(f[-3]), int(f[-2])
            w = want[("torch", "collective", name, None, None, rank)]
            w["calls"] += 1
            w["self_ns"] += dur
            w["total_ns"] += dur
            if nbytes >= 0:  # -1: not known
                w["bytes"] = (w["bytes"] or 0) + nbytes
    got = rows(got_path)
    got = {k: v for k, v in got.items() if k[0] == "torch"}
    return compare(want, got, ["calls", "self_ns", "total_ns", "bytes"])


def pyspy(fmt, path, got_path):
    src = open(os.path.join(HERE, "pyspy_oracle.py")).read().rsplit("\nmain()", 1)[0]
    ns = {}
    exec(compile(src, "pyspy_oracle.py", "exec"), ns)
    reader = ns["READERS"][fmt]
    stacks = reader(path, 0) if fmt == "speedscope" else reader(path, ns["DEFAULT_RATE"])
    self_s, total_s = collections.Counter(), collections.Counter()
    for _, _, frames, _, sec in stacks:
        self_s[(frames[-1][0], frames[-1][1])] += sec
        for fn in {(f[0], f[1]) for f in frames}:
            total_s[fn] += sec
    want = {("py-spy", "function", n, f, None, None):
            {"self_ns": round(self_s[(n, f)] * 1e9), "total_ns": round(total_s[(n, f)] * 1e9),
             "calls": None, "bytes": None} for (n, f) in total_s}
    got = rows(got_path)
    bad = []
    for k, g in got.items():  # sums of float seconds: within a nanosecond
        w = want.get(k)
        if w and abs(g["self_ns"] - w["self_ns"]) <= 1 and abs(g["total_ns"] - w["total_ns"]) <= 1:
            g["self_ns"], g["total_ns"] = w["self_ns"], w["total_ns"]
    return compare(want, got, ["calls", "self_ns", "total_ns", "bytes"]) if not bad else bad


def opavg(path, got_path):
    from decimal import Decimal, ROUND_HALF_UP
    def ns(us):
        return int((Decimal(us) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    want = collections.defaultdict(lambda: {"calls": 0, "self_ns": 0, "total_ns": 0,
                                            "bytes": None})
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rank = int(r["global_rank"]) if r.get("global_rank", "") != "" else None
            w = want[("torch-averages", "op_device", r["name"], None, None, rank)]
            w["calls"] += int(r["calls"])
            w["self_ns"] += ns(r["self_cuda_time_total"])
            w["total_ns"] += ns(r["cuda_time_total"])
    return compare(want, rows(got_path), ["calls", "self_ns", "total_ns", "bytes"])


def ns(seconds):
    """seconds (a double) to ns as C's llround(seconds * 1e9) does."""
    from decimal import Decimal, ROUND_HALF_UP
    return int(Decimal(seconds * 1e9).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def pstats_key(func):
    file, line, name = func
    if (file, line) == ("~", 0):
        return ("cprofile", "function", name, None, None, None)
    return ("cprofile", "function", name, file, line or None, None)


def cprofile(path, got_path):
    """Python's pstats reads the dump: calls, primitive calls, tottime
    and cumtime of every function, exactly (ns of the same doubles)."""
    import pstats
    want = {}
    for func, (cc, nc, tt, ct, _) in pstats.Stats(path).stats.items():
        want[pstats_key(func)] = {"calls": nc, "prim_calls": cc, "self_ns": ns(tt),
                                  "total_ns": ns(ct), "bytes": None, "rank": None}
    return compare(want, rows(got_path), ["calls", "prim_calls", "self_ns", "total_ns",
                                          "bytes", "rank"])


def cprofile_print(path, got_path):
    """`python3 -m pstats FILE` (sort tottime, stats) prints the same
    lines as amdahl's numbers printed the way pstats prints them."""
    out = subprocess.run([sys.executable, "-m", "pstats", path], input="sort tottime\nstats\nquit\n",
                         check=True, capture_output=True, text=True).stdout
    body = out.split("filename:lineno(function)\n", 1)[1]
    want = collections.Counter(l for l in body.split("\n") if l.strip() and "% " not in l
                               and not l.startswith(path))
    got = collections.Counter()
    f8 = lambda x: "%8.3f" % x
    for r in json.load(open(got_path))["regions"]:
        nc, cc, tt, ct = r["calls"], r["prim_calls"], r["self_ns"] / 1e9, r["total_ns"] / 1e9
        c = str(nc) + ("/" + str(cc) if nc != cc else "")
        name = r["name"]
        if r["file"] is None:
            where = "{%s}" % name[1:-1] if name.startswith("<") and name.endswith(">") else name
        else:
            where = "%s:%d(%s)" % (r["file"], r["line"] or 0, name)
        got[" ".join([c.rjust(9), f8(tt), " " * 8 if nc == 0 else f8(tt / nc), f8(ct),
                      " " * 8 if cc == 0 else f8(ct / cc), where])] += 1
    if want == got:
        return "ok"
    return "\n".join(["pstats only: " + l for l in list((want - got).elements())[:5]] +
                     ["amdahl only: " + l for l in list((got - want).elements())[:5]])


def cprofile_callers(path, store, source_path):
    """The caller edges in the store (sqlite3) against pstats' callers."""
    import pstats, sqlite3
    import region_pack
    want = {}
    for func, (_, _, _, _, callers) in pstats.Stats(path).stats.items():
        for caller, (nc, cc, tt, ct) in callers.items():
            want[(pstats_key(caller)[2:5], pstats_key(func)[2:5])] = (nc, cc, ns(tt), ns(ct))
    db = sqlite3.connect(store)
    region_pack.region_rows(db)  # the packed regions (schema 15) as rows
    region_pack.call_rows(db)  # and the packed caller edges (schema 17)
    fn = ("SELECT r.key, n.s, f.s, r.line FROM region r JOIN dict n ON n.id=r.name_id"
          " LEFT JOIN dict f ON f.id=r.file_id WHERE r.source_id=?")
    sid = db.execute("SELECT id FROM source WHERE path=?", (source_path,)).fetchone()[0]
    keys = {k: (n, f, l) for k, n, f, l in db.execute(fn, (sid,))}
    got = {(keys[a], keys[b]): (nc, cc, tt, ct) for a, b, nc, cc, tt, ct in db.execute(
        "SELECT caller_key, callee_key, calls, prim_calls, self_ns, total_ns FROM region_call"
        " WHERE source_id=?", (sid,))}
    if got == want:
        return "ok"
    diff = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
    return "\n".join(f"{k}: {got.get(k)} != {want.get(k)}" for k in diff[:5]) + \
        f"\n({len(diff)} edges differ of {len(want)})"


def keyavg(path, got_path):
    """The key_averages table read another way: data cells by the spans of
    the dash rule (torch pads every data cell to its column), the header
    by its two-blank gaps; units as torch formats them."""
    import re
    from decimal import Decimal, ROUND_HALF_UP
    lines = open(path).read().split("\n")
    r0 = next(i for i, l in enumerate(lines) if re.fullmatch(r"-[- ]*", l.rstrip()))
    spans = [m.span() for m in re.finditer(r"-+", lines[r0])]
    head = re.split(r"  +", lines[r0 + 1].strip())
    col = {h: i for i, h in enumerate(head)}
    scale = {"us": 10**3, "ms": 10**6, "s": 10**9, "b": 1, "Kb": 1024, "Mb": 1024**2,
             "Gb": 1024**3}
    def num(text):
        m = re.fullmatch(r"(-?[0-9.]+) ?([A-Za-z]+)", text)
        return int((Decimal(m.group(1)) * scale[m.group(2)]).quantize(Decimal(1), ROUND_HALF_UP))
    want = collections.defaultdict(lambda: {"calls": 0, "self_ns": 0, "total_ns": 0,
                                            "bytes": None})
    for l in lines[r0 + 3:]:
        if re.fullmatch(r"-[- ]*", l.rstrip()):
            break
        cells = [l[a:b].strip() for a, b in spans]
        cells[-1] = l[spans[-1][0]:].strip()
        get = lambda h: cells[col[h]] if h in col else None
        for kind, self_h, total_h, mem_h in (("op", "Self CPU", "CPU total", "CPU Mem"),
                                             ("op_device", "Self CUDA", "CUDA total", "CUDA Mem")):
            if get(self_h) is None:
                continue
            self_ns, total_ns = num(get(self_h)), num(get(total_h))
            if kind == "op_device" and not (self_ns or total_ns):
                continue
            w = want[("torch-averages", kind, cells[0], None, None, None)]
            w["calls"] += int(get("# of Calls"))
            w["self_ns"] += self_ns
            w["total_ns"] += total_ns
            # a negative size (memory freed) is not kept: "not measured"
            if get(mem_h) is not None and num(get(mem_h)) >= 0:
                w["bytes"] = (w["bytes"] or 0) + num(get(mem_h))
    return compare(want, rows(got_path), ["calls", "self_ns", "total_ns", "bytes"])


def nsys(path, got_path):
    """An Nsight Systems export read with Python's sqlite3: per device and
    name the kernels, per device and copy kind the copies, per device the
    sets, per name the CUDA API calls; NVTX self time by looking, for
    every push/pop range, for the innermost range of its thread that
    holds it; each device's phases by interval-set algebra over its
    kernels and memory operations."""
    import sqlite3
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    cols = lambda t: {r[1] for r in db.execute(f"PRAGMA table_info('{t}')")}
    s = dict(db.execute("SELECT id, value FROM StringIds"))
    want = {}
    def add(kind, name, dev, calls, self_ns, total_ns, nbytes):
        want[("nsys", kind, name, None, None, None, dev)] = {
            "calls": calls, "self_ns": self_ns, "total_ns": total_ns, "bytes": nbytes}
    K, MC, MS = ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                 "CUPTI_ACTIVITY_KIND_MEMSET")
    dev_iv = collections.defaultdict(lambda: {"compute": [], "comm": [], "memory": []})
    times = []
    if K in tables:
        ncol = "demangledName" if "demangledName" in cols(K) else "shortName"
        agg = collections.defaultdict(lambda: [0, 0])
        for d, a, b, nid in db.execute(f'SELECT deviceId, start, "end", {ncol} FROM {K}'):
            name = s.get(nid, "(unnamed)")  # a name id without its string: compute
            agg[(d, name)][0] += 1
            agg[(d, name)][1] += b - a
            dev_iv[d]["comm" if nid in s and name.lower().startswith("nccl") else "compute"].append((a, b))
            times += [a, b]
        for (d, name), (c, t) in agg.items():
            add("kernel", name, d, c, t, t, None)
    labels = ["Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array", "Array-to-Host",
              "Array-to-Array", "Array-to-Device", "Device-to-Array", "Device-to-Device",
              "Host-to-Host", "Peer-to-Peer", "Unified Host-to-Device",
              "Unified Device-to-Host", "Unified Device-to-Device"]
    for tab, kind in ((MC, "memcpy"), (MS, "memset")):
        if tab not in tables:
            continue
        agg = collections.defaultdict(lambda: [0, 0, 0])
        q = "copyKind" if kind == "memcpy" else "0"
        for d, a, b, nb, ck in db.execute(f'SELECT deviceId, start, "end", bytes, {q} FROM {tab}'):
            name = f"[CUDA memcpy {labels[ck]}]" if kind == "memcpy" else "[CUDA memset]"
            r = agg[(d, name)]
            r[0] += 1; r[1] += b - a; r[2] += nb
            dev_iv[d]["memory"].append((a, b))
            times += [a, b]
        for (d, name), (c, t, nb) in agg.items():
            add(kind, name, d, c, t, t, nb)
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
        agg = collections.defaultdict(lambda: [0, 0])
        for a, b, nid in db.execute('SELECT start, "end", nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME'):
            agg[s[nid]][0] += 1; agg[s[nid]][1] += b - a
            times += [a, b]
        for name, (c, t) in agg.items():
            add("cuda_api", name, None, c, t, t, None)
    if "NVTX_EVENTS" in tables:
        tid_col = "textId" if "textId" in cols("NVTX_EVENTS") else "NULL"
        rows_ = [(t, a, b, txt if txt is not None else s.get(tid, "(unnamed)") if tid is not None
                  else "(unnamed)", et) for t, a, b, txt, tid, et in db.execute(
            f'SELECT globalTid, start, "end", text, {tid_col}, eventType FROM NVTX_EVENTS'
            ' WHERE "end" IS NOT NULL AND eventType IN (59, 60)')]
        times += [x for r in rows_ for x in r[1:3]]
        agg = collections.defaultdict(lambda: [0, 0, 0])
        pp = [r for r in rows_ if r[4] == 59]
        children = collections.Counter()
        for i, (t, a, b, name, _) in enumerate(pp):
            holders = [j for j, (t2, a2, b2, _, _) in enumerate(pp)
                       if j != i and t2 == t and a2 <= a and b2 >= b and (a2, -b2, j) < (a, -b, i)]
            if holders:
                p = max(holders, key=lambda j: (pp[j][1], -pp[j][2], j))
                children[p] += min(b, pp[p][2]) - a
        for i, (t, a, b, name, et) in enumerate(pp):
            r = agg[name]; r[0] += 1; r[1] += max(b - a - children[i], 0); r[2] += b - a
        for (t, a, b, name, et) in rows_:
            if et == 60:
                r = agg[name]; r[0] += 1; r[1] += b - a; r[2] += b - a
        for name, (c, se, to) in agg.items():
            add("nvtx", name, None, c, se, to, None)
    def union(iv):
        out = []
        for a, b in sorted(iv):
            if out and a <= out[-1][1]:
                out[-1][1] = max(out[-1][1], b)
            else:
                out.append([a, b])
        return out
    def length(iv):
        return sum(b - a for a, b in iv)
    def inter(x, y):
        out, i, j = [], 0, 0
        while i < len(x) and j < len(y):
            a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
            if a < b:
                out.append([a, b])
            if x[i][1] < y[j][1]:
                i += 1
            else:
                j += 1
        return out
    window = max(times) - min(times) if times else 0
    gpu = dict(db.execute("SELECT id, name FROM TARGET_INFO_GPU")) if "TARGET_INFO_GPU" in tables else {}
    for d, iv in dev_iv.items():
        comp, comm, mem = union(iv["compute"]), union(iv["comm"]), union(iv["memory"])
        compute = length(comp)
        overlap = length(inter(comp, comm))
        communication = length(union(comp + comm)) - compute
        memory = length(union(comp + comm + mem)) - compute - communication
        idle = max(window - compute - communication - memory, 0)
        for name, v in (("compute", compute), ("communication", communication),
                        ("memory", memory), ("idle", idle)):
            add("phase", name, d, None, v, v, None)
        add("phase", "overlap", d, None, None, overlap, None)
        add("device", gpu.get(d, f"GPU {d}"), d, None, compute + communication + memory,
            window, None)
    return compare(want, rows(got_path, device=True), ["calls", "self_ns", "total_ns", "bytes"])


def main():
    cmd = sys.argv[1]
    if cmd == "trace":
        print(trace(sys.argv[2], sys.argv[3]))
    elif cmd == "cprofile":
        print(cprofile(sys.argv[2], sys.argv[3]))
    elif cmd == "cprofile-print":
        print(cprofile_print(sys.argv[2], sys.argv[3]))
    elif cmd == "cprofile-callers":
        print(cprofile_callers(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif cmd == "keyavg":
        print(keyavg(sys.argv[2], sys.argv[3]))
    elif cmd == "nsys":
        print(nsys(sys.argv[2], sys.argv[3]))
    elif cmd == "opavg":
        print(opavg(sys.argv[2], sys.argv[3]))
    elif cmd == "pyspy":
        print(pyspy(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        raise SystemExit(f"unknown subcommand {cmd}")


if __name__ == "__main__":
    main()
