#!/usr/bin/python3
"""mllog_oracle.py WHAT LOG... — MLPerf :::MLLOG logs read with Python's
json (not amdahl's reader), the way MLCommons' result checker reads them:
lines holding ':::MLLOG ' after an optional 'N: ' rank prefix (the lines
with no prefix and those of the lowest rank present), system fields from
the ':::SYSJSON ' line, else from the results folder's
systems/SYSTEM.json (results/SYSTEM/BENCHMARK/result_N.txt).
  ttt       per log "WORLD_SIZE|TIME_TO_TRAIN_S" (run_stop - run_start in
            seconds, 3 decimals; world size = number_of_nodes x
            accelerators_per_node), one a line, by world size
  blocks    per log "INDEX|SECONDS|SAMPLES_PER_S" of each block_start ..
            block_stop interval (6 decimals; '' when samples_count is
            missing), all logs in order
  evals     the sum and count of eval_accuracy values over the logs
            ("%.9f %d")
  run       per log "STATUS|TIME_TO_TRAIN_S|RANKS": run_stop's status
            (any event_type: Graphcore logs it as INTERVAL_START), '' and
            '' without a run_stop; RANKS = distinct rank prefixes"""
import json
import os
import re
import sys

PREFIX = re.compile(r"^ *(?:(\d+): )?:::(MLLOG|SYSJSON) (.*)$")


def read(path):
    lines = [m for m in (PREFIX.match(l.rstrip("\n")) for l in open(path, errors="replace")) if m]
    ranks = {int(m.group(1)) for m in lines if m.group(2) == "MLLOG" and m.group(1) is not None}
    keep = str(min(ranks)) if ranks else None
    events, system = [], {}
    for m in lines:
        if m.group(2) == "SYSJSON":
            system = system or json.loads(m.group(3))
        elif m.group(1) is None or m.group(1) == keep:
            events.append(json.loads(m.group(3)))
    parts = os.path.abspath(path).split(os.sep)
    if not system and len(parts) > 4 and parts[-4] == "results":
        sysfile = os.sep.join(parts[:-4] + ["systems", parts[-3] + ".json"])
        if os.path.exists(sysfile):
            system = json.load(open(sysfile))
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
elif what == "run":
    for p in paths:
        ev, _ = read(p)
        ranks = {m.group(1) for m in (PREFIX.match(l) for l in open(p, errors="replace"))
                 if m and m.group(2) == "MLLOG" and m.group(1) is not None}
        stops = [e for e in ev if e["key"] == "run_stop"]
        starts = [e for e in ev if e["key"] == "run_start"]
        if stops and starts:
            st = (stops[-1].get("metadata") or {}).get("status", "success")
            print("%s|%.3f|%d" % (st, (stops[-1]["time_ms"] - starts[0]["time_ms"]) / 1000, len(ranks)))
        else:
            print("||%d" % len(ranks))
else:
    sys.exit("mllog_oracle.py: unknown WHAT " + what)
