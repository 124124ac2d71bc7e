#!/usr/bin/python3
"""pyspy_bad_inputs.py — py-spy files that are hard to read, made from the
good ones in testdata/pyspy for tests/e2e/pyspy.sh.

  pyspy_bad_inputs.py unclosed-end CHROMETRACE OUT
      the chrometrace with its first "E" event renamed, so that it closes
      nothing that is open
  pyspy_bad_inputs.py deep-first-line COLLAPSED OUT
      the collapsed file with its first stack made deep (the root frames
      once, the Python frames 12 times), so that the first line is longer
      than the 4 KB detection head
"""
import json
import sys


def unclosed_end(src, dst):
    ev = json.load(open(src))
    i = next(k for k, e in enumerate(ev) if e["ph"] == "E")
    ev[i]["name"] = "not_open"
    json.dump(ev, open(dst, "w"))


def deep_first_line(src, dst):
    lines = open(src).read().splitlines()
    stack, count = lines[0].rsplit(" ", 1)
    frames = stack.split(";")
    deep = frames[:3] + frames[3:] * 12  # root frames once, Python frames 12 times
    open(dst, "w").write(";".join(deep) + " " + count + "\n" + "\n".join(lines[1:]) + "\n")
    assert len(lines[0]) < 4096 < len(";".join(deep))


{"unclosed-end": unclosed_end, "deep-first-line": deep_first_line}[sys.argv[1]](*sys.argv[2:4])
