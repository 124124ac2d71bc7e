#!/usr/bin/python3
"""gen_big_trace.py SRC.json[.gz] OUT.json COPIES — a larger real-shaped
trace: SRC's traceEvents repeated COPIES times, each copy's "ts" shifted
by whole windows (integer µs part only, so fractions stay as written).
Written at bench time into /tmp; never committed. split() and write() are
also used by gen_readers.py."""
import gzip
import re
import sys

TS = re.compile(rb'("ts": ?)(-?\d+)')
TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]]')


def split(src):
    """(text before the events, the events, text after them) of a trace."""
    raw = (gzip.open if open(src, "rb").read(2) == b"\x1f\x8b" else open)(src, "rb").read()
    start = raw.index(b"[", raw.index(b'"traceEvents"')) + 1
    depth = 1  # the end of the traceEvents array (brackets inside strings skipped)
    for m in TOKEN.finditer(raw, start):
        if m.group() == b"[":
            depth += 1
        elif m.group() == b"]":
            depth -= 1
            if depth == 0:
                break
    end = m.start()
    return raw[:start], raw[start:end].rstrip(), raw[end:]


def write(out, head, body, tail, copies):
    ts = [int(m.group(2)) for m in TS.finditer(body)]
    span = max(ts) - min(ts) + 1000
    with open(out, "wb") as f:
        f.write(head)
        for k in range(copies):
            shift = k * span
            f.write(b"\n" if k == 0 else b",\n")
            f.write(TS.sub(lambda m: m.group(1) + str(int(m.group(2)) + shift).encode(), body))
        f.write(tail)


if __name__ == "__main__":
    write(sys.argv[2], *split(sys.argv[1]), int(sys.argv[3]))
