#!/usr/bin/python3
"""gen_readers.py KIND OUT MB — one reader's input for `make bench`
(bench/readers.sh), grown from a real file to about MB megabytes by
repeating its real content with shifted times and renamed ids, so that
every copy is new to the reader (distinct stacks, functions, rows) and
nothing is deduplicated away. Prints "COUNT UNIT": the events, samples,
rows or points written, for the per-second column. Written at bench time
into /tmp; never committed. Kinds and their sources:

  trace         testdata's H100 rank trace (kernel-heavy), steps repeated
  trace-strings ../shared's kineto resnet50 trace (record_shapes and
                with_stack: Input Dims and Call stack on every op)
  pyspy-raw     testdata/pyspy/train-raw.txt, leaf frames renamed per copy
  collapsed     ../shared's perf collapsed stacks, leaf frames renamed
  speedscope    ../shared's py-spy 0.4.2 speedscope file, frames copied
  chrometrace   testdata/pyspy/train.chrometrace.json, ts shifted
  dump          ../shared's py-spy dump text, threads repeated, as a
                directory of dumps of at most DUMP_MB (py-spy dump prints one
                process's threads; amdahl refuses a dump above 2 MiB)
  dump-json     testdata/pyspy/calendarbot.dump.json, the same way
  svg           ../shared's py-spy flame graph SVG, frames shifted along x
  nvsmi         testdata/gpu-batch-sweep/nvidia-smi.csv, times shifted
  itwinai       testdata's itwinai torch_profiling_averages.csv, ops renamed
  rest-history  a REST metrics/get-history of the CPU sweep's epoch times
  tfevents      ../shared's SummaryWriter event file, records repeated
  cprofile      ../shared's Python 3.9 cProfile dump (gen_big_profiles.py)
  nsys          ../shared's nsys 2024.6 export (gen_big_profiles.py)
  keyavg        ../shared's key_averages() table with CUDA columns
  mllog         ../shared's Lambda 8x8 MLPerf log, blocks repeated
"""
import datetime
import glob
import json
import marshal
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_big_profiles  # noqa: E402
import gen_big_trace  # noqa: E402

PUB = os.environ.get("PUBLIC", "../shared/data/public")  # as in tests/test-lib.sh


def copies_of(unit_bytes, mb):
    return max(1, -int(-mb * 1e6 // max(unit_bytes, 1)))


def trace(src, out, mb):
    head, body, tail = gen_big_trace.split(src)
    n = copies_of(len(body), mb)
    gen_big_trace.write(out, head, body, tail, n)
    return body.count(b'"ph"') * n, "events"


def text_lines(src, out, mb, line_of):
    """Every line of src passed through line_of(line, copy) per copy."""
    lines = open(src).read().splitlines()
    n = copies_of(sum(len(x) + 1 for x in lines), mb)
    with open(out, "w") as f:
        for k in range(n):
            f.writelines(line_of(x, k) + "\n" for x in lines)
    return len(lines) * n


def rename_leaf(line, k):
    stack, count = line.rsplit(" ", 1)
    head, _, leaf = stack.rpartition(";")
    name, sep, where = leaf.partition(" (")
    return f"{head};{name}#{k}{sep}{where} {count}"


def speedscope(src, out, mb):
    d = json.load(open(src))
    frames = d["shared"]["frames"]
    per = len(json.dumps(d))
    n = copies_of(per, mb)
    d["shared"]["frames"] = [dict(f, name=f"{f['name']}#{k}") for k in range(n) for f in frames]
    samples = 0
    for p in d["profiles"]:
        span = p["endValue"] - p["startValue"]
        p["samples"] = [[i + k * len(frames) for i in s] for k in range(n) for s in p["samples"]]
        p["weights"] = p["weights"] * n
        p["endValue"] = p["startValue"] + span * n
        samples += len(p["samples"])
    json.dump(d, open(out, "w"))
    return samples


def chrometrace(src, out, mb):
    ev = json.load(open(src))
    meta = [e for e in ev if e["ph"] == "M"]
    rest = [e for e in ev if e["ph"] != "M"]
    span = max(e["ts"] for e in rest) - min(e["ts"] for e in rest) + 10000
    n = copies_of(len(json.dumps(rest)), mb)
    with open(out, "w") as f:
        f.write(json.dumps(meta)[:-1])
        for k in range(n):
            for e in rest:
                f.write("," + json.dumps(dict(e, ts=e["ts"] + k * span, name=f"{e['name']}#{k}")))
        f.write("]")
    return len(rest) * n


DUMP_MB = 1.0


def dump_files(out, n, per, write):
    """n copies in files of at most per copies each, in the directory out."""
    os.makedirs(out, exist_ok=True)
    for i, k0 in enumerate(range(0, n, per)):
        with open(os.path.join(out, f"dump-{i:04d}"), "w") as f:
            write(f, range(k0, min(n, k0 + per)))


def dump_text(src, out, mb):
    text = open(src).read()
    head, first, rest = re.split(r"(?m)^(Thread \d+)", text, maxsplit=1)
    block = first + rest
    tid = int(first.split()[1])
    n = copies_of(len(block), mb)

    def write(f, ks):
        f.write(head)
        for k in ks:
            f.write(block.replace(first, f"Thread {tid + k}", 1).rstrip("\n") + "\n\n")
    dump_files(out, n, max(1, int(DUMP_MB * 1e6 - len(head)) // (len(block) + 2)), write)
    return n * block.count("\n    "), "frames"


def dump_json(src, out, mb):
    threads = json.load(open(src))
    one = len(json.dumps(threads, indent=2))
    n = copies_of(len(json.dumps(threads)), mb)

    def write(f, ks):
        json.dump([dict(t, thread_id=t["thread_id"] + k * 1000, os_thread_id=t["os_thread_id"] + k * 1000)
                   for k in ks for t in threads], f, indent=2)
    dump_files(out, n, max(1, int(DUMP_MB * 1e6) // one), write)
    return n * sum(len(t["frames"]) for t in threads), "frames"


def svg(src, out, mb):
    """The frames but "all" repeated, each copy moved right by all's width."""
    text = open(src).read()
    m = re.search(r'<g><title>all \(([\d,]+) samples, 100%\)</title>.*?</g>', text)
    total = int(m.group(1).replace(",", ""))
    first = text.index("<g><title>")
    last = text.rindex("</svg></svg>")
    frames = text[first:m.start()] + text[m.end():last]
    n = copies_of(len(frames), mb)

    def shifted(k):
        s = re.sub(r'fg:x="(\d+)"', lambda x: f'fg:x="{int(x.group(1)) + k * total}"', frames)
        return re.sub(r"<title>([^<(]+?) \(", lambda x: f"<title>{x.group(1)}#{k} (", s)
    root = m.group(0).replace(f'fg:w="{total}"', f'fg:w="{total * n}"').replace(
        m.group(1), f"{total * n:,}")
    head = text[:first].replace(f'total_samples="{total}"', f'total_samples="{total * n}"', 1)
    with open(out, "w") as f:
        f.write(head + root)
        for k in range(n):
            f.write(shifted(k))
        f.write("</svg></svg>")
    return total * n, "samples"


def nvsmi(src, out, mb):
    head, *rows = open(src).read().splitlines()
    fmt = "%Y/%m/%d %H:%M:%S.%f"
    times = [datetime.datetime.strptime(r.split(",")[0], fmt) for r in rows]
    span = times[-1] - times[0] + (times[1] - times[0])
    n = copies_of(sum(len(r) + 1 for r in rows), mb)
    with open(out, "w") as f:
        f.write(head + "\n")
        for k in range(n):
            for t, r in zip(times, rows):
                f.write((t + k * span).strftime(fmt)[:-3] + r[r.index(","):] + "\n")
    return len(rows) * n, "samples"


def itwinai(src, out, mb):
    head, *rows = open(src).read().splitlines()
    n = copies_of(sum(len(r) + 1 for r in rows), mb)
    with open(out, "w") as f:
        f.write(head + "\n")
        for k in range(n):
            f.writelines(f"{r.split(',', 1)[0]}#{k},{r.split(',', 1)[1]}\n" for r in rows)
    return len(rows) * n, "rows"


def rest_history(src, out, mb):
    pts = [line.split() for line in open(src)]  # ts value step
    one = len(json.dumps({"key": "epoch_time_s", "value": 1.0, "timestamp": "1", "step": "1"})) + 2
    n = copies_of(one * len(pts), mb)
    span_ts = int(pts[-1][0]) - int(pts[0][0]) + 1000
    with open(out, "w") as f:
        f.write('{"metrics": [')
        sep = ""
        for k in range(n):
            for ts, v, step in pts:
                f.write(sep + json.dumps({"key": "epoch_time_s", "value": float(v),
                                          "timestamp": str(int(ts) + k * span_ts),
                                          "step": str(int(step) + k * len(pts))}))
                sep = ", "
        f.write("]}")
    return len(pts) * n, "points"


def tfevents(src, out, mb):
    data = open(src, "rb").read()
    n = copies_of(len(data), mb)
    with open(out, "wb") as f:
        for _ in range(n):
            f.write(data)
    records, at = 0, 0
    while at < len(data):  # TFRecord framing: u64 length, u32 crc, data, u32 crc
        at += 16 + int.from_bytes(data[at:at + 8], "little")
        records += 1
    return records * n, "records"


def keyavg(src, out, mb):
    lines = open(src).read().splitlines()
    rule = [i for i, x in enumerate(lines) if x.startswith("---")]
    head, rows, tail = lines[:rule[1] + 1], lines[rule[1] + 1:rule[2]], lines[rule[2]:]
    width = len(lines[0].split("  ")[0])
    n = copies_of(sum(len(r) + 1 for r in rows), mb)
    with open(out, "w") as f:
        f.write("\n".join(head) + "\n")
        for k in range(n):
            f.writelines((r[:width].strip() + f"#{k}").rjust(width)[-width:] + r[width:] + "\n" for r in rows)
        f.write("\n".join(tail) + "\n")
    return len(rows) * n, "rows"


def mllog(src, out, mb):
    lines = open(src).read().splitlines()
    first = next(i for i, x in enumerate(lines) if '"key": "block_start"' in x)
    stop = next(i for i, x in enumerate(lines) if '"key": "run_stop"' in x)
    block = lines[first:stop]
    tms = [int(x) for x in re.findall(r'"time_ms": (\d+)', "\n".join(block))]
    sc = [int(x) for x in re.findall(r'"samples_count": (\d+)', "\n".join(block))]
    dt, ds = max(tms) - min(tms) + 1000, max(sc)
    n = copies_of(sum(len(x) + 1 for x in block), mb)
    shift = lambda s, k: re.sub(r'("samples_count": )(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + k * ds),
                                re.sub(r'("time_ms": )(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + k * dt), s))
    with open(out, "w") as f:
        f.write("\n".join(lines[:first]) + "\n")
        for k in range(n):
            f.write(shift("\n".join(block), k) + "\n")
        f.write(shift("\n".join(lines[stop:]), n - 1) + "\n")
    return n * sum(":::MLLOG" in x for x in block), "records"


def profile(kind):
    def grow(src, out, mb):
        getattr(gen_big_profiles, kind)(src, out, mb)
        if kind == "cprofile":
            return len(marshal.load(open(out, "rb"))), "functions"
        db = sqlite3.connect(out)
        return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0], "kernels"
    return grow


def main():
    kind, out, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    h100 = sorted(glob.glob("testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz"),
                  key=os.path.getsize)[-1]
    itw = sorted(glob.glob("testdata/itwinai-layout/mllogs/mlflow/*/*/artifacts/*/torch_profiling_averages.csv"))[0]
    epochs = glob.glob("testdata/cpu-strong-scaling/mlruns/4/35b98d95cb2449f9a3df172d0213ebd2/metrics/epoch_time_s")[0]
    kinds = {
        "trace": (trace, h100),
        "trace-strings": (trace, f"{PUB}/memtraces/kineto-resnet50-nw4-worker0.1623212756351.pt.trace.json.gz"),
        "pyspy-raw": (lambda s, o, m: (text_lines(s, o, m, rename_leaf), "samples"), "testdata/pyspy/train-raw.txt"),
        "collapsed": (lambda s, o, m: (text_lines(s, o, m, rename_leaf), "stacks"),
                      f"{PUB}/pyspy/flamegraph-perf-collapsed-pid.txt"),
        "speedscope": (lambda s, o, m: (speedscope(s, o, m), "samples"), f"{PUB}/pyspy/cs336-bpe.speedscope.json"),
        "chrometrace": (lambda s, o, m: (chrometrace(s, o, m), "events"), "testdata/pyspy/train.chrometrace.json"),
        "dump": (dump_text, f"{PUB}/pyspy/calendarbot.dump.txt"),
        "dump-json": (dump_json, "testdata/pyspy/calendarbot.dump.json"),
        "svg": (svg, f"{PUB}/pyspy/pyexastolog-old.py-spy.svg"),
        "nvsmi": (nvsmi, "testdata/gpu-batch-sweep/nvidia-smi.csv"),
        "itwinai": (itwinai, itw),
        "rest-history": (rest_history, epochs),
        "tfevents": (tfevents, f"{PUB}/tfevents/mmvae-summarywriter.events.out.tfevents.1708473985.g001.3759122.0"),
        "cprofile": (profile("cprofile"), f"{PUB}/cprofile/mmvae-torch-py39.pstats"),
        "nsys": (profile("nsys"), f"{PUB}/nsys/fuser-report2-nsys2024.6.sqlite"),
        "keyavg": (keyavg, f"{PUB}/keyavg/gfnongnn-cuda-mem.keyavg.txt"),
        "mllog": (mllog, f"{PUB}/mllog/lambda-llama2_70b_lora-8x8gpu.log"),
    }
    grow, src = kinds[kind]
    if not os.path.exists(src):
        print("0 missing:" + src)
        return
    count, unit = grow(src, out, mb)
    print(count, unit)


if __name__ == "__main__":
    main()
