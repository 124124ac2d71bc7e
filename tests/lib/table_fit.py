#!/usr/bin/python3
"""table_fit.py TABLE JSON KIND — checks a table amdahl printed
against its --json twin, for tests/e2e/table_width.sh. KIND: regions
(`amdahl regions`: the name is the last column) or scaling (`amdahl
scaling`: the region is the first column of each strategy's table).
In each row the name cell is the whole name of the JSON's row in
the same place, or its head and tail around one "…" (the head the longer).
Prints "ROWS SHORTENED WIDEST NAMEW": the table rows, those shortened,
the widest table line and the widest name cell, in display columns (one
per code point)."""
import json
import sys

table, doc, kind = sys.argv[1:4]
lines = open(table, encoding="utf-8").read().splitlines()
d = json.load(open(doc, encoding="utf-8"))
widest = namew = 0
key = "name" if kind == "regions" else "region"
rows = short = 0
strategy = None
for n, line in enumerate(lines):
    if line.startswith("strategy "):
        strategy = line.split()[1].rstrip(":")
    words = line.split()
    if key not in words or n + 1 >= len(lines) or not lines[n + 1].startswith("─"):
        continue
    if kind == "regions":
        names = [r["name"] for r in d["regions"]]
    else:
        names = [r["name"] for r in d["regions"] if r["strategy"] == strategy]
    widest = max(widest, len(line), len(lines[n + 1]))
    for i, body in enumerate(lines[n + 2:]):
        if not body.strip() or body.startswith("("):
            break
        cell = body[line.index("name"):] if kind == "regions" else body[:line.index("kind")].rstrip()
        full = names[i]
        rows += 1
        widest = max(widest, len(body))
        namew = max(namew, len(cell))
        if "…" in cell:
            head, tail = cell.split("…")
            assert full.startswith(head) and full.endswith(tail) and len(head) >= len(tail), (cell, full)
            assert len(full) > len(cell), (cell, full)
            short += 1
        else:
            assert cell == full, (cell, full)
print(rows, short, widest, namew)
