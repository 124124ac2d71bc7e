#!/usr/bin/python3
"""mllog_oracle.py WHAT LOG... — MLPerf :::MLLOG logs read with Python's
json (not amdahl's reader), the way MLCommons' result checker reads them:
lines holding ':::MLLOG ' after an optional 'N: ' rank prefix (the first
rank's only), system fields from the ':::SYSJSON ' line.
  ttt       per log "WORLD_SIZE|TIME_TO_TRAIN_S" (run_stop - run_start in
            seconds, 3 decimals; world size = number_of_nodes x
            accelerators_per_node), one a line, by world size
  blocks    per log "INDEX|SECONDS|SAMPLES_PER_S" of each block_start ..
            block_stop interval (6 decimals; '' when samples_count is
            missing), all logs in order
  evals     the sum and count of eval_accuracy values over the logs
            ("%.9f %d")"""
import json
import re
import sys

PREFIX = re.compile(r"^ *(?:(\d+): )?:::(MLLOG|SYSJSON) (.*)$")


def read(path):
    events, system, rank = [], {}, None
    for line in open(path, errors="replace"):
        m = PREFIX.match(line.rstrip("\n"))
        if not m:
            continue
        if m.group(2) == "SYSJSON":
            system = system or json.loads(m.group(3))
            continue
        if rank is None:
            rank = m.group(1)
        if m.group(1) == rank:
            events.append(json.loads(m.group(3)))
    return events, system


def world(system, events):
    pts = {e["key"]: e["value"] for e in events}
    nodes = system.get("number_of_nodes", pts.get("number_of_nodes"))
    accel = system.get("accelerators_per_node", pts.get("accelerators_per_node"))
    return int(nodes) * int(accel)


what, paths = sys.argv[1], sys.argv[2:]
if what == "ttt":
    rows = []
    for p in paths:
        ev, sysd = read(p)
        t0 = min(e["time_ms"] for e in ev if e["key"] == "run_start")
        t1 = max(e["time_ms"] for e in ev if e["key"] == "run_stop")
        rows.append((world(sysd, ev), (t1 - t0) / 1000))
    print("\n".join("%d|%.3f" % r for r in sorted(rows)))
elif what == "blocks":
    for p in paths:
        ev, _ = read(p)
        start, i = None, 0
        for e in ev:
            if e["key"] == "block_start":
                start = e
            elif e["key"] == "block_stop" and start:
                s = (e["time_ms"] - start["time_ms"]) / 1000
                n0 = start.get("metadata", {}).get("samples_count")
                n1 = e.get("metadata", {}).get("samples_count")
                tp = "%.6f" % ((n1 - n0) / s) if n0 is not None and n1 is not None and s > 0 and n1 > n0 else ""
                print("%d|%.6f|%s" % (i, s, tp))
                i, start = i + 1, None
elif what == "evals":
    vals = [e["value"] for p in paths for e in read(p)[0] if e["key"] == "eval_accuracy"]
    print("%.9f %d" % (sum(vals), len(vals)))
else:
    sys.exit("mllog_oracle.py: unknown WHAT " + what)
