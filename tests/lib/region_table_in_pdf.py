#!/usr/bin/env python3
"""region_table_in_pdf.py PDF_TEXT REGIONS_JSON — checks the report's
"Where the time goes" table (pdftotext -layout of report.pdf) against
`amdahl regions SWEEP -n 0 --json`: the (profiler, kind) with the most
self time (steps, phases and devices aside, as the chart), and per
configuration its 5 regions with the most self time, each row's self and
total ms, share and calls. Prints "N rows ok" or the first difference."""
import collections, json, re, sys

TOP = 5
rows = [r for r in json.load(open(sys.argv[2]))["regions"]
        if r["kind"] not in ("step", "phase", "device") and r["self_ns"] is not None]
per_pair = collections.Counter()
for r in rows:
    per_pair[(r["source"], r["kind"])] += max(r["self_ns"], 0)
src, kind = max(per_pair, key=per_pair.get)
want = collections.defaultdict(list)
for r in rows:
    if (r["source"], r["kind"]) == (src, kind):
        want[(r["strategy"], r["n"])].append(r)


def ms(ns):
    return "–" if ns is None else f"{ns / 1e6:.3f}"


def calls(r):
    if r["calls"] is None:
        return "–"
    if r["prim_calls"] is not None and r["prim_calls"] != r["calls"]:
        return f"{r['calls']}/{r['prim_calls']}"
    return str(r["calls"])


expect = []
for cfg in sorted(want, key=lambda c: (c[0] or "", c[1])):
    top = sorted(want[cfg], key=lambda r: -r["self_ns"])[:TOP]
    expect += [(cfg[0], str(cfg[1]), ms(r["self_ns"]), f"{100 * r['share']:.1f}%",
                ms(r["total_ns"]), calls(r), r["name"]) for r in top]

line = re.compile(r"^\s*(\S+)\s+(\d+)\s+\d+\s+([\d.]+)\s+([\d.]+%)\s+([\d.–]+)\s+(\S+)\s+\S+\s+"
                  + re.escape(kind) + r"\s+" + re.escape(src) + r"\s+(.+?)\s*$")
got = [m.groups() for m in map(line.match, open(sys.argv[1], encoding="utf-8")) if m]
if len(got) != len(expect):
    sys.exit(f"{len(got)} table rows of {src} {kind}, want {len(expect)}")
# order within a configuration may differ only between equal self times
key = lambda t: (t[0], int(t[1]), -float(t[2]), t[6])
for g, w in zip(sorted(got, key=key), sorted(expect, key=key)):
    name_ok = g[6] == w[6] or ("…" in g[6] and w[6].startswith(g[6].split("…")[0])
                               and w[6].endswith(g[6].split("…")[1]))
    if g[:6] != w[:6] or not name_ok:
        sys.exit(f"row {g} want {w}")
print(f"{len(got)} rows ok")
