#!/usr/bin/python3
"""json_query.py FILE EXPR — the tests' one JSON helper (json_get in
tests/test-lib.sh). Loads FILE (- for stdin) as `d` and prints
print(eval(EXPR)). Helpers for amdahl's documents:
  sweep(name=None)           a sweep of `stats --json` (the only one when None)
  strategy(name, sweep=None) a strategy of that sweep
  point(strategy, n, sweep=None) a point of that strategy
  rows(key="rows")           the list under key (gate/compare JSON)
  row(metric, strategy=None, n=None) the comparison row that matches
  first(seq, **fields)       the first dict of seq whose fields equal these
  count(seq, **fields)       how many dicts of seq match
  jdump(x)                   x as compact JSON (sorted keys)
A failed lookup prints the Python error on stderr and exits 1."""
import json
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: json_query.py FILE EXPR")
    src = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1], encoding="utf-8")
    d = json.load(src)

    def sweep(name=None):
        sw = d["sweeps"]
        if name is None:
            if len(sw) != 1:
                raise KeyError("%d sweeps: name one" % len(sw))
            return sw[0]
        return next(s for s in sw if s["sweep"] == name)

    def strategy(name, sweep_name=None):
        return next(s for s in sweep(sweep_name)["strategies"] if s["strategy"] == name)

    def point(strat, n, sweep_name=None):
        return next(p for p in strategy(strat, sweep_name)["points"] if p["n"] == n)

    def first(seq, **fields):
        return next(x for x in seq if all(x.get(k) == v for k, v in fields.items()))

    def count(seq, **fields):
        return sum(1 for x in seq if all(x.get(k) == v for k, v in fields.items()))

    def rows(key="rows"):
        return d[key]

    def row(metric, strat=None, n=None):
        return next(r for r in d["rows"] if r["metric"] == metric
                    and (strat is None or r.get("strategy") == strat)
                    and (n is None or r.get("n") == n))

    def jdump(x):
        return json.dumps(x, sort_keys=True, separators=(",", ":"))

    env = dict(d=d, sweep=sweep, strategy=strategy, point=point, first=first,
               count=count, rows=rows, row=row, jdump=jdump, math=math, json=json)
    try:
        print(eval(sys.argv[2], env))
    except Exception as e:  # the test shows this line
        sys.exit("json_query: %s: %s: %r" % (sys.argv[2], type(e).__name__, e))


main()
