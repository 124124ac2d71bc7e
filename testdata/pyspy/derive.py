#!/usr/bin/python3
"""Derives the py-spy test files in this directory from the public samples
in ../shared/data/public/pyspy (see README.md). Run from the repository
root: /usr/bin/python3 testdata/pyspy/derive.py ../shared/data/public/pyspy"""
import collections, json, re, sys

pub = sys.argv[1]
out = "testdata/pyspy"
ss = json.load(open(f"{pub}/cs336-bpe.speedscope.json"))
frames = ss["shared"]["frames"]
PARENT = 'process 4242:"torchrun --nproc_per_node=1 train.py"'
CHILD = 'process 4250:"python train.py --data ./d;rm --tag a;b"'


def thread_frame(profile_name):
    m = re.match(r'Thread (\S+) "(.*)"$', profile_name)
    return f"thread ({m.group(1)}): {m.group(2)}" if m.group(2) else f"thread ({m.group(1)})"


def text(ix):
    f = frames[ix]
    return f"{f['name']} ({f['file']}:{f['line']})" if f.get("line") else f"{f['name']} ({f['file']})"


# py-spy record -s -t -f raw: root frames, then Python frames root first
counts = collections.Counter()
for p in ss["profiles"]:
    for s in p["samples"]:
        counts[";".join([PARENT, CHILD, thread_frame(p["name"])] + [text(i) for i in s])] += 1
with open(f"{out}/train-raw.txt", "w") as f:
    for k, v in sorted(counts.items()):
        f.write(f"{k} {v}\n")

# perf/FlameGraph collapsed: real lines of the public sample
lines = open(f"{pub}/flamegraph-perf-collapsed-pid.txt").read().splitlines()
with open(f"{out}/perf-collapsed.txt", "w") as f:
    f.write("\n".join(lines[:4]) + "\n")

# py-spy --format chrometrace, as py-spy's chrometrace.rs writes it: one
# sample every 10 ms per thread; E for frames that left the stack, B for
# new ones; E for every open frame at the end
events, tids = [], {}
for p in ss["profiles"]:
    tid = tids.setdefault(p["name"], len(tids))
    m = re.match(r'Thread (\S+) "(.*)"$', p["name"])
    events.append({"args": {"filename": "", "line": None, "name": f"{m.group(1)}: {m.group(2)}"},
                   "cat": "py-spy", "name": "thread_name", "ph": "M", "pid": 4250, "tid": tid, "ts": 0})
for p in ss["profiles"]:
    tid = tids[p["name"]]
    prev = []
    for k, s in enumerate(p["samples"][:400]):
        ts = 1000000 + 10000 * k
        common = 0
        while common < min(len(prev), len(s)) and prev[common] == s[common]:
            common += 1
        for ix in reversed(prev[common:]):
            events.append({"args": {"filename": frames[ix]["file"], "line": frames[ix]["line"]},
                           "cat": "py-spy", "name": frames[ix]["name"], "ph": "E", "pid": 4250, "tid": tid, "ts": ts})
        for ix in s[common:]:
            events.append({"args": {"filename": frames[ix]["file"], "line": frames[ix]["line"]},
                           "cat": "py-spy", "name": frames[ix]["name"], "ph": "B", "pid": 4250, "tid": tid, "ts": ts})
        prev = s
    end = 1000000 + 10000 * min(len(p["samples"]), 400)
    for ix in reversed(prev):
        events.append({"args": {"filename": frames[ix]["file"], "line": frames[ix]["line"]},
                       "cat": "py-spy", "name": frames[ix]["name"], "ph": "E", "pid": 4250, "tid": tid, "ts": end})
with open(f"{out}/train.chrometrace.json", "w") as f:
    f.write(json.dumps(events, separators=(",", ":")) + "\n")

# py-spy dump --json (serde of Vec<StackTrace>) from the public dump text
traces, cur, pid, cmd = [], None, None, None
for line in open(f"{pub}/calendarbot.dump.txt").read().splitlines():
    if m := re.match(r"Process (\d+): (.*)$", line):
        pid, cmd = int(m.group(1)), m.group(2)
    elif m := re.match(r'Thread (\S+) \(([^)]*)\)(?:: "(.*)")?$', line):
        cur = {"pid": pid, "thread_id": 0x7F0000000000 + int(m.group(1)) % 4096,
               "thread_name": m.group(3), "os_thread_id": int(m.group(1)),
               "active": m.group(2) != "idle", "owns_gil": "gil" in m.group(2), "frames": [],
               "process_info": {"pid": pid, "command_line": cmd, "parent": None}}
        traces.append(cur)
    elif m := re.match(r"    (.*) \((.*?)(?::(\d+))?\)$", line):
        cur["frames"].append({"name": m.group(1), "filename": m.group(2), "module": None,
                              "short_filename": m.group(2), "line": int(m.group(3) or 0), "locals": None})
with open(f"{out}/calendarbot.dump.json", "w") as f:
    f.write(json.dumps(traces, indent=2) + "\n")

# py-spy record -f speedscope as 0.3.14 (100 Hz, one thread) and 0.4.1
# (1000 Hz, three threads) write it, with the empty samples real files
# hold (a thread sampled outside any Python frame: samples[i] == []):
# the first 120 samples of the public threads, every 5th one emptied.
def idle_speedscope(name, exporter, rate, threads):
    used, profiles = {}, []
    for p in [p for p in ss["profiles"] if len(p["samples"]) > 100][:threads]:
        samples = [[] if k % 5 == 4 else [used.setdefault(i, len(used)) for i in s]
                   for k, s in enumerate(p["samples"][:120])]
        profiles.append({"type": "sampled", "name": p["name"], "unit": "seconds",
                         "startValue": 0.0, "endValue": len(samples) / rate,
                         "samples": samples, "weights": [1 / rate] * len(samples)})
    shared = [None] * len(used)
    for i, j in used.items():
        shared[j] = frames[i]
    doc = {"$schema": "https://www.speedscope.app/file-format-schema.json", "profiles": profiles,
           "shared": {"frames": shared}, "activeProfileIndex": None, "exporter": exporter,
           "name": "py-spy profile"}
    with open(f"{out}/{name}", "w") as f:
        f.write(json.dumps(doc, separators=(",", ":")) + "\n")


idle_speedscope("idle-0.3.14.speedscope.json", "py-spy@0.3.14", 100.0, 1)
idle_speedscope("idle-0.4.1-1000hz.speedscope.json", "py-spy@0.4.1", 1000.0, 3)

# py-spy record -s -t -o profile.svg (no --format: an inferno flame graph)
# of train-raw.txt's stacks, laid out as inferno 0.11 (py-spy 0.3.14 and
# 0.4) writes it: frames sorted by name under their parent, one row of
# height 16 per depth from the "all" root (inverted, as py-spy's are),
# fg:x/fg:w in samples, titles "text (N samples, P%)" with thousands
# separators, the command line as the title.
def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


trie = {}
for k, v in counts.items():
    node = trie
    for part in re.split(r";(?=[^\"]*(?:\"[^\"]*\"[^\"]*)*$)", k):
        node = node.setdefault(part, [0, {}])
        node[0] += v
        node = node[1]
total = sum(counts.values())
rows = []


def lay(node, x, depth):
    for name in sorted(node):
        w, kids = node[name]
        rows.append((name, x, w, depth))
        lay(kids, x, depth + 1)
        x += w


rows.append(("all", 0, total, 0))
lay(trie, 0, 1)
with open(f"{out}/train.py-spy.svg", "w") as f:
    f.write('<?xml version="1.0" standalone="no"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
            '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg version="1.1" width="1200" '
            f'height="{52 + 16 * max(r[3] for r in rows) + 40}" onload="init(evt)" '
            'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'xmlns:fg="http://github.com/jonhoo/inferno"><!--Flame graph stack visualization. '
            'See https://github.com/brendangregg/FlameGraph for latest version.--><!--NOTES: -->'
            '<script type="text/ecmascript"><![CDATA[var nametype = \'Function:\'; var inverted = true;]]>'
            '</script><rect x="0" y="0" width="100%" height="100%" fill="url(#background)"/>'
            '<text id="title" x="50.0000%" y="24.00">py-spy record -s -t -o profile.svg -- torchrun '
            'train.py</text><text id="details" x="10" y="40.00"> </text>'
            f'<svg id="frames" x="10" width="1180" total_samples="{total}">')
    for name, x, w, depth in rows:
        y = 52 + 16 * depth
        f.write(f'<g><title>{esc(name)} ({w:,} samples, {100 * w / total:.2f}%)</title>'
                f'<rect x="{100 * x / total:.4f}%" y="{y}" width="{100 * w / total:.4f}%" '
                f'height="15" fill="rgb(227,0,7)" fg:x="{x}" fg:w="{w}"/><text x="{100 * x / total + 0.25:.4f}%" '
                f'y="{y + 10.5:.2f}"></text></g>\n')
    f.write("</svg></svg>\n")
