#!/usr/bin/python3
"""gen_sized_trace.py [--kineto-order] [--keep-names] SRC.json[.gz] OUT.json BYTES — a real-shaped trace of
about BYTES: SRC's traceEvents repeated until the file reaches BYTES, each
copy's "ts" shifted past the previous copy (as gen_big_trace.py) and every
"name" value suffixed with the copy number, so names keep being new as the
file grows (the worst case for name tables). Streamed copy by copy: the
generator holds one copy, never the file. Prints the copies and events.
--kineto-order writes the file as Kineto does: every copy's CPU ops
(cpu_op, fwdbwd, user_annotation) first, then every copy's runtime calls,
kernels and copies (a second pass), so a thread's CPU ops all stream by
before the first runtime call made inside them.
--keep-names leaves the names as they are (a long real trace repeats its
ops' names: a realistic trace; the suffixed names are the worst case).
Written at bench time into /tmp; never committed."""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gen_big_trace import split, TS  # noqa: E402

NAME = re.compile(rb'("name": ?"[^"\\]*)')
PH = re.compile(rb'"ph"')


CPU_CATS = (b'"cat": "cpu_op"', b'"cat": "fwdbwd"', b'"cat": "user_annotation"')


def halves(body):
    """body's events as (CPU-side text, the rest): events are split at the
    top-level '},' between objects (brackets inside strings skipped)."""
    cpu, rest, depth, start = [], [], 0, 0
    tok = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}]')
    for m in tok.finditer(body):
        if m.group() == b"{":
            depth += 1
            if depth == 1:
                start = m.start()
        elif m.group() == b"}":
            depth -= 1
            if depth == 0:
                ev = body[start:m.end()]
                (cpu if any(c in ev for c in CPU_CATS) else rest).append(ev)
    return b",\n".join(cpu), b",\n".join(rest)


KEEP_NAMES = False


def copy(body, k, span):
    """Copy k of body: timestamps shifted k spans on, names suffixed @copy-k
    (unless --keep-names)."""
    shift = k * span
    pad = b"@copy-%06d" % k
    chunk = TS.sub(lambda m: m.group(1) + str(int(m.group(2)) + shift).encode(), body)
    return chunk if KEEP_NAMES else NAME.sub(lambda m: m.group(1) + pad, chunk)


def kineto_order(src, out, target):
    head, body, tail = split(src)
    ts = [int(m.group(2)) for m in TS.finditer(body)]
    span = max(ts) - min(ts) + 1000
    per_copy = len(PH.findall(body))
    cpu, rest = halves(body)
    k = max(1, round((target - len(head) - len(tail)) / (len(body) + 1)))
    with open(out, "wb") as f:
        f.write(head)
        sep = b"\n"
        for part in (cpu, rest):
            for i in range(k):
                f.write(sep + copy(part, i, span))
                sep = b",\n"
        f.write(tail)
    print(k, k * per_copy)


def main(src, out, target):
    head, body, tail = split(src)
    ts = [int(m.group(2)) for m in TS.finditer(body)]
    span = max(ts) - min(ts) + 1000
    per_copy = len(PH.findall(body))
    written, k = 0, 0
    with open(out, "wb") as f:
        f.write(head)
        written += len(head) + len(tail)
        while written < target:
            chunk = (b"\n" if k == 0 else b",\n") + copy(body, k, span)
            f.write(chunk)
            written += len(chunk)
            k += 1
        f.write(tail)
    print(k, k * per_copy)


if __name__ == "__main__":
    args = sys.argv[1:]
    flags = {a for a in args if a.startswith("--")}
    args = [a for a in args if not a.startswith("--")]
    KEEP_NAMES = "--keep-names" in flags
    run = kineto_order if "--kineto-order" in flags else main
    run(args[0], args[1], int(float(args[2])))
