#!/usr/bin/python3
"""Independent oracle for the py-spy tests: reads py-spy files in Python
(its own parsing, not amdahl's) and computes sample totals and top
functions by self and total time, to compare with `amdahl pyspy top
--json -n 0`.

  pyspy_oracle.py total FORMAT FILE [--rate R]   -> "SAMPLES SECONDS"
  pyspy_oracle.py check FORMAT FILE AMDAHL_JSON [--total] [--per-thread]
                  [--library NAME] [--rate R]      -> "ok" or the differences
  pyspy_oracle.py trie FORMAT FILE AMDAHL_TRIE_JSON  -> "ok" or the differences
FORMAT: collapsed, speedscope, chrometrace, dump, dump-json.
Stacks are (process, thread, frames root first, samples, seconds)."""
import collections, json, re, sys

DEFAULT_RATE = 100.0


def frame(text):
    """'name (file:line)' / 'name (file)' / bare -> (name, file, line)."""
    if text.endswith(")") and " (" in text[1:]:
        name, loc = text[:-1].rsplit(" (", 1)
        m = re.fullmatch(r"(.*):(\d{1,9})", loc)
        return (name, m.group(1) or None, int(m.group(2))) if m else (name, loc or None, 0)
    return (text, None, 0)


def collapsed(path, rate):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        count = int(count)
        process = thread = None
        # -s root frames: process PID:"cmdline" (cmdline may hold ';')
        while m := re.match(r'process (\d+):"(.*?)"(;|$)', stack):
            process = f"{m.group(1)} {m.group(2)}"
            stack = stack[m.end():]
        if m := re.match(r"thread \((0x[0-9A-Fa-f]+|\d+)\)(?:: ([^;]*))?(;|$)", stack):
            thread = m.group(1) + (" " + m.group(2) if m.group(2) else "")
            stack = stack[m.end():]
        frames = [frame(t) for t in stack.split(";")]
        out.append((process, thread, frames, count, count / rate))
    return out


def speedscope(path, rate_flag):
    d = json.load(open(path))
    fr = [(f["name"], f.get("file") or None, f.get("line") or 0) for f in d["shared"]["frames"]]
    weights = [w for p in d["profiles"] for w in p["weights"] if w > 0]
    rate = rate_flag or 1 / min(weights)
    out = []
    for p in d["profiles"]:
        m = re.match(r'Thread (\S+) "(.*)"$', p["name"])
        thread = f"{m.group(1)} {m.group(2)}" if m.group(2) else m.group(1)
        for s, w in zip(p["samples"], p["weights"]):
            # an empty sample is a sample of nothing: the frame "<idle>"
            frames = [fr[i] for i in s] or [("<idle>", None, 0)]
            out.append((None, thread, frames, round(w * rate), w))
    return out


def chrometrace(path, rate):
    events = json.load(open(path))
    names, open_, last = {}, collections.defaultdict(list), {}
    us = collections.Counter()
    for e in events:
        key = (e["pid"], e["tid"])
        if e["ph"] == "M":
            tid, _, nm = e["args"]["name"].partition(": ")
            names[key] = f"{tid} {nm}" if nm else tid
            continue
        if key in last and open_[key] and e["ts"] > last[key]:
            us[(key, tuple(open_[key]))] += e["ts"] - last[key]
        last[key] = e["ts"]
        if e["ph"] == "B":
            open_[key].append((e["name"], e["args"]["filename"] or None, e["args"]["line"] or 0))
        else:
            assert open_[key].pop()[0] == e["name"]
    return [(str(k[0]), names.get(k, str(k[1])), list(st), round(t * rate / 1e6), t / 1e6)
            for (k, st), t in us.items()]


def dump(path, rate):
    out, process, thread, frames = [], None, None, []
    def flush():
        if frames:
            out.append((process, thread, frames[::-1], 1, 1 / rate))
    for line in open(path, encoding="utf-8"):
        line = line.rstrip()
        if m := re.match(r"Process (\d+): (.*)$", line):
            flush(); frames = []
            process = f"{m.group(1)} {m.group(2)}"
        elif m := re.match(r'Thread (\S+) \([^)]*\)(?:: "(.*)")?$', line):
            flush(); frames = []
            thread = m.group(1) + (" " + m.group(2) if m.group(2) else "")
        elif line.startswith("    ") and not line.startswith("        "):
            frames.append(frame(line[4:]))
    flush()
    return out


def dump_json(path, rate):
    out = []
    for t in json.load(open(path)):
        thread = str(t["os_thread_id"]) + (" " + t["thread_name"] if t.get("thread_name") else "")
        process = f"{t['pid']} {t['process_info']['command_line']}"
        frames = [(f["name"], f.get("short_filename") or f["filename"] or None, f["line"] or 0)
                  for f in t["frames"]][::-1]
        if frames:
            out.append((process, thread, frames, 1, 1 / rate))
    return out


def svg(path, rate):
    """py-spy's flame graph SVG, sample by sample: for each sample position
    in [0, total_samples) the frame of each row whose [fg:x, fg:x+fg:w)
    holds it, rows ordered from the "all" root (the top row when
    inverted); identical stacks add up."""
    import bisect
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    fg = "{http://github.com/jonhoo/inferno}"
    root = ET.parse(path).getroot()
    frames_svg = next(e for e in root.iter(ns + "svg") if e.get("id") == "frames")
    total = int(frames_svg.get("total_samples"))
    rows = collections.defaultdict(list)
    for g in frames_svg.iter(ns + "g"):
        t, r = g.find(ns + "title"), g.find(ns + "rect")
        if t is None or r is None:
            continue
        text = re.sub(r" \([0-9,]+ samples?, [0-9.]+%\)$", "", t.text)
        rows[float(r.get("y"))].append((int(r.get(fg + "x")), int(r.get(fg + "w")), text))
    ys = sorted(rows)
    # the root row: the "all" frame's (else the widest frame's) is first
    root_y = max((text == "all", w, -y) for y in ys for _, w, text in rows[y])
    if -root_y[2] != ys[0]:
        ys.reverse()
    for y in ys:
        rows[y].sort()
    counts = collections.Counter()
    for s in range(total):
        stack = []
        for y in ys:
            row = rows[y]
            i = bisect.bisect_right(row, (s, float("inf"))) - 1
            if i < 0 or not row[i][0] <= s < row[i][0] + row[i][1]:
                break
            stack.append(row[i][2])
        if stack and stack[0] == "all":
            stack = stack[1:]
        counts[tuple(stack)] += 1
    # the rate: the caller's, else the title's `--rate N`/`-r N` (py-spy's
    # options, before "--" or the profiled program), else 100 Hz
    if not rate:
        title = next((e for e in root.iter(ns + "text") if e.get("id") == "title"), None)
        words = (title.text or "").split()[1:] if title is not None else []
        valued = {"-p", "--pid", "-o", "--output", "-f", "--format", "-d", "--duration", "-r", "--rate"}
        i = 0
        while i < len(words) and words[i] != "--" and (words[i].startswith("-") or words[i] == "record"):
            w = words[i]
            if w in valued and i + 1 < len(words):
                if w in ("-r", "--rate"):
                    rate = float(words[i + 1])
                i += 2
                continue
            if w.startswith("--rate="):
                rate = float(w[7:])
            elif re.fullmatch(r"-r[0-9.]+", w):
                rate = float(w[2:])
            i += 1
        rate = rate or DEFAULT_RATE
    out = []
    for stack, n in counts.items():
        process = thread = None
        frames = []
        for text in stack:
            if m := re.fullmatch(r'process (\d+):"(.*)"', text):
                process = f"{m.group(1)} {m.group(2)}"
            elif m := re.fullmatch(r"thread \((0x[0-9A-Fa-f]+|\d+)\)(?:: (.*))?", text):
                thread = m.group(1) + (" " + m.group(2) if m.group(2) else "")
            else:
                frames.append(frame(text))
        # samples of the root alone: py-spy saw no Python frame
        out.append((process, thread, frames or [("<idle>", None, 0)], n, n / rate))
    return out


READERS = {"svg": svg, "collapsed": collapsed, "speedscope": speedscope, "chrometrace": chrometrace,
           "dump": dump, "dump-json": dump_json}


def top(stacks, per_thread, library):
    rows = collections.defaultdict(lambda: [0, 0.0, 0, 0.0])
    for process, thread, frames, n, sec in stacks:
        g = (process, thread) if per_thread else (None, None)
        leaf = frames[-1]
        lib = None
        if library:
            lib = next((f for f in reversed(frames) if f[1] and library in f[1]), None)
        r = rows[g + (leaf[0], leaf[1], lib)]
        r[0] += n
        r[1] += sec
        if library:
            continue
        for fn in {(f[0], f[1]) for f in frames}:
            r = rows[g + fn + (None,)]
            r[2] += n
            r[3] += sec
    return rows


def check_trie(stacks, got):
    """Every node's total and self against the stacks merged by path; the
    parents-first order; children no larger than their parent."""
    total, self_ = collections.Counter(), collections.Counter()
    for _, _, frames, n, _ in stacks:
        path = tuple(frames)
        self_[path] += n
        for d in range(1, len(path) + 1):
            total[path[:d]] += n
    paths, bad = [], []
    for i, nd in enumerate(got["nodes"]):
        p = nd["parent"]
        if p >= i:
            bad.append(f"node {i}: parent {p} not before it")
            break
        fr = (nd["name"], nd.get("file"), nd["line"])
        paths.append((paths[p] if p >= 0 else ()) + (fr,))
        if nd["total_samples"] != total[paths[-1]] or nd["self_samples"] != self_[paths[-1]]:
            bad.append(f"node {i} {fr}: {nd['total_samples']}/{nd['self_samples']}"
                       f" != {total[paths[-1]]}/{self_[paths[-1]]}")
    if len(set(paths)) != len(paths) or set(paths) != set(total):
        bad.append(f"{len(paths)} nodes, {len(total)} distinct paths expected")
    if got["samples"] != sum(s[3] for s in stacks):
        bad.append(f"samples {got['samples']}")
    return "ok" if not bad else "\n".join(bad[:10])


def main():
    args = sys.argv[1:]
    def opt(name, default=None):
        if name in args:
            i = args.index(name)
            v = args[i + 1]
            del args[i:i + 2]
            return v
        return default
    def flag(name):
        if name in args:
            args.remove(name)
            return True
        return False
    rate = float(opt("--rate", 0))
    library = opt("--library")
    total, per_thread = flag("--total"), flag("--per-thread")
    cmd, fmt, path = args[0], args[1], args[2]
    stacks = READERS[fmt](path, rate) if fmt in ("speedscope", "svg") else READERS[fmt](path, rate or DEFAULT_RATE)
    if cmd == "total":
        print(sum(s[3] for s in stacks), "%.6f" % sum(s[4] for s in stacks))
        return
    got = json.load(open(args[3]))
    if cmd == "trie":
        print(check_trie(stacks, got))
        return
    want = top(stacks, per_thread, library)
    bad = []
    if got["samples"] != sum(s[3] for s in stacks):
        bad.append(f"samples {got['samples']} != {sum(s[3] for s in stacks)}")
    seen = set()
    for f in got["functions"]:
        lf = f.get("library_frame")
        lib = (lf["function"], lf.get("file"), lf["line"]) if lf else None
        key = (f.get("process"), f.get("thread"), f["function"], f["file"], lib)
        seen.add(key)
        w = want.get(key)
        if w is None:
            bad.append(f"unexpected row {key}")
            continue
        if f["self_samples"] != w[0] or abs(f["self_seconds"] - w[1]) > 1e-6:
            bad.append(f"{key}: self {f['self_samples']}/{f['self_seconds']} != {w[0]}/{w[1]}")
        if not library and (f["total_samples"] != w[2] or abs(f["total_seconds"] - w[3]) > 1e-6):
            bad.append(f"{key}: total {f['total_samples']} != {w[2]}")
    missing = set(want) - seen
    if missing:
        bad.append(f"{len(missing)} rows missing, e.g. {sorted(missing, key=str)[0]}")
    key = "total_samples" if total else "self_samples"
    vals = [f[key] for f in got["functions"]]
    if vals != sorted(vals, reverse=True):
        bad.append(f"rows not ordered by {key}")
    print("ok" if not bad else "\n".join(bad[:10]))


main()
