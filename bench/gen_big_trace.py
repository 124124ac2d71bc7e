#!/usr/bin/python3
"""gen_big_trace.py SRC.json[.gz] OUT.json COPIES — a larger real-shaped
trace: SRC's traceEvents repeated COPIES times, each copy's "ts" shifted
by whole windows (integer µs part only, so fractions stay as written).
Written at bench time into /tmp; never committed."""
import gzip
import re
import sys

src, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
raw = (gzip.open if open(src, "rb").read(2) == b"\x1f\x8b" else open)(src, "rb").read()
start = raw.index(b"[", raw.index(b'"traceEvents"')) + 1
depth, i = 1, start
# the end of the traceEvents array (no brackets inside strings in Kineto output
# except in names; track strings to be safe)
in_str = esc = False
while depth:
    c = raw[i]
    if in_str:
        if esc:
            esc = False
        elif c == 0x5C:
            esc = True
        elif c == 0x22:
            in_str = False
    elif c == 0x22:
        in_str = True
    elif c == 0x5B:
        depth += 1
    elif c == 0x5D:
        depth -= 1
    i += 1
end = i - 1
body = raw[start:end].rstrip()
ts = [int(m.group(1)) for m in re.finditer(rb'"ts": ?(-?\d+)', body)]
span = max(ts) - min(ts) + 1000
pat = re.compile(rb'("ts": ?)(-?\d+)')
with open(out, "wb") as f:
    f.write(raw[:start])
    for k in range(copies):
        shift = k * span
        f.write(b"\n" if k == 0 else b",\n")
        f.write(pat.sub(lambda m: m.group(1) + str(int(m.group(2)) + shift).encode(), body))
    f.write(raw[end:])
