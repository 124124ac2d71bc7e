#!/usr/bin/python3
"""compare_rows_in_text.py COMPARE.json TEXT — every row of `amdahl
compare --json` with a ratio, as the report prints it ("R [LO, HI]" to 3
decimals, or "R (no CI)") and its verdict, looked up in TEXT (whitespace
runs read as one space; the verdict in the words tables print,
tests/lib/verdict_words.py). Prints "N MISSING": N the rows with a ratio,
MISSING the Python list of strings not found ([] when all are there)."""
import json
import os
import re
import sys


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict_words import shown  # noqa: E402 (the words tables print)


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
