#!/usr/bin/python3
"""compare_rows_in_text.py COMPARE.json TEXT — every row of `amdahl
compare --json` with a ratio, as the report prints it ("R [LO, HI]" to 3
decimals, or "R (no CI)") and its verdict, looked up in TEXT (whitespace
runs read as one space; the JSON verdict in the words tables print: an
ungated regression "worse", "no change", "insufficient data"). Prints "N MISSING": N the rows with a ratio,
MISSING the Python list of strings not found ([] when all are there)."""
import json
import re
import sys



def shown(r):
    """The verdict as a table shows it (lib/compare/compare.c amd_row_verdict)."""
    v = r["verdict"]
    if not r["gated"] and v in ("regression", "improvement"):
        return "worse" if v == "regression" else "better"
    if v == "insufficient_data" and not (r["baseline"]["runs"] and r["candidate"]["runs"]):
        return "missing"
    return v.replace("_", " ")


d = json.load(open(sys.argv[1]))
text = re.sub(r"\s+", " ", open(sys.argv[2]).read())
want = []
for r in d["rows"]:
    if r["ratio"] is None:
        continue
    if r["ci"]:
        want.append("%.3f [%.3f, %.3f]" % (r["ratio"], r["ci"]["lo"], r["ci"]["hi"]))
    else:
        want.append("%.3f (no CI)" % r["ratio"])
    want.append(shown(r))
print(len(want) // 2, [w for w in want if w not in text])
