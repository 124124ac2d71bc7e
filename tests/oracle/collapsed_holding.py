#!/usr/bin/python3
"""collapsed_holding.py FILE TEXT — the samples of the collapsed stacks
(py-spy/perf "frame;frame;… COUNT" lines) of FILE whose frames contain
TEXT: a function's total once per stack, however often it recurses
(tests/e2e/pyspy.sh)."""
import sys

n = 0
for line in open(sys.argv[1]):
    stack, c = line.rstrip("\n").rsplit(" ", 1)
    if sys.argv[2] in stack:
        n += int(c)
print(n)
