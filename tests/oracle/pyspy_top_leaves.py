#!/usr/bin/python3
"""pyspy_top_leaves.py RAW — the three leaf functions with the most
samples in a py-spy raw (collapsed stacks) file, counted here: one
"name (file.py)" per line."""
import collections
import re
import sys

c = collections.Counter()
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        continue
    stack, n = line.rsplit(" ", 1)
    m = re.match(r"(.*) \((.*):\d+\)$", stack.split(";")[-1])
    if m:
        c[(m.group(1), m.group(2).split("/")[-1])] += int(n)
for (name, f), n in c.most_common(3):
    print("%s (%s)" % (name, f))
