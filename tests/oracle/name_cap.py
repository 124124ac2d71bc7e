#!/usr/bin/python3
"""name_cap.py — absurd names for tests/e2e/name_cap.sh, and the cap they
must be stored under, computed independently of amdahl's C (hashlib).

  cap TEXT...                   the stored form of each TEXT, one per line
  capa N                        the stored form of N bytes of 'a'
  long run|sweep|strategy       the long run name, sweep name, strategy
  trace SRC OUT                 SRC (a bundled PyTorch trace) with the
                                names of its first four cpu_ops replaced by
                                the LONG names below; prints nothing
  bigtrace SRC OUT N            SRC with its first cpu_op named N bytes of
                                'a'; prints the byte (of the decompressed
                                JSON) where the name passes 1 MiB
  dump SRC OUT FRAMES FORM      SRC (py-spy dump --json) with its first
                                thread FRAMES deep, written as FORM (json or
                                txt, py-spy's text form); in json form the
                                deepest frame's function name is LONG_FRAME;
                                prints, for txt, the line of frame 4097
  check STORE KIND...           checks the store's long names: KIND is
                                ops (the trace's), frame, run (its name
                                and strategy), sweep;
                                prints what differs, nothing when all match

The cap (lib/core/name_cap.h): a name of more than 4096 bytes is stored as
its first 4077 bytes, cut back to a UTF-8 character boundary, then "…"
and the first 16 hex digits of the SHA-256 of the whole name.
"""
import gzip
import hashlib
import json
import sqlite3

import region_pack
import sys

MAX = 4096
HEX = 16
ELLIPSIS = "\u2026".encode()

# 'op' + 2-byte characters: byte 4077 falls inside a character, so the
# prefix is cut back one byte; two names equal for 500 kB and different
# at their end; one name used twice
LONG = {
    "A": "op" + "\u00e4" * 300000,
    "B": "x" * 500000 + "B",
    "C": "x" * 500000 + "C",
}
TRACE_NAMES = ["A", "B", "C", "B"]
LONG_FRAME = "deep_" + "f" * 10000
LONG_RUN = "run-" + "r" * 5000
LONG_SWEEP = "sweep-" + "s" * 5000
LONG_STRATEGY = "ddp-" + "d" * 5000


def cap(text):
    b = text.encode()
    if len(b) <= MAX:
        return text
    keep = MAX - len(ELLIPSIS) - HEX
    while keep > 0 and (b[keep] & 0xC0) == 0x80:
        keep -= 1
    out = b[:keep] + ELLIPSIS + hashlib.sha256(b).hexdigest()[:HEX].encode()
    assert len(out) <= MAX
    return out.decode()


def cpu_ops(doc):
    return [e for e in doc["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "cpu_op"]


def trace(src, out):
    doc = json.load(gzip.open(src))
    for e, k in zip(cpu_ops(doc), TRACE_NAMES):
        e["name"] = LONG[k]
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=1) as f:
        json.dump(doc, f, ensure_ascii=False)


def bigtrace(src, out, n):
    doc = json.load(gzip.open(src))
    cpu_ops(doc)[0]["name"] = "\x00MARK"
    text = json.dumps(doc).encode()
    head, tail = text.split(b'"\\u0000MARK"')
    with gzip.open(out, "wb", compresslevel=1) as f:
        f.write(head + b'"')
        for _ in range(n // (1 << 20)):
            f.write(b"a" * (1 << 20))
        f.write(b"a" * (n % (1 << 20)) + b'"' + tail)
    print(len(head) + 1 + (1 << 20))


def dump(src, out, frames, form):
    d = json.load(open(src))
    fr = d[0]["frames"]
    d[0]["frames"] = [dict(fr[i % len(fr)], line=fr[i % len(fr)]["line"] + i // len(fr))
                      for i in range(frames)]
    if form == "json":
        d[0]["frames"][0]["name"] = LONG_FRAME
        json.dump(d, open(out, "w"))
        return
    lines = ["Process %d: python3 calendarbot" % d[0]["pid"],
             "Python v3.12.3 (/usr/bin/python3.12)", ""]
    for t in d:
        lines.append('Thread %d (idle): "%s"' % (t["os_thread_id"], t["thread_name"]))
        if t is d[0]:
            at = len(lines) + 4097
        lines += ["    %s (%s:%d)" % (x["name"], x["short_filename"], x["line"])
                  for x in t["frames"]]
    open(out, "w").write("\n".join(lines) + "\n")
    print(at)


def check(store, kinds):
    db = sqlite3.connect(store)
    region_pack.region_rows(db)  # the packed regions (schema 15) as rows
    bad = []

    def want(what, got, expected):
        if sorted(got) != sorted(expected):
            bad.append("%s: got %s, expected %s" % (
                what, [(len(g.encode()), g[:12], g[-20:]) for g in got],
                [(len(e.encode()), e[:12], e[-20:]) for e in expected]))

    long_dict = [r[0] for r in db.execute("SELECT s FROM dict WHERE length(s) > 1000")]
    for s in long_dict:
        if len(s.encode()) > MAX:
            bad.append("dict holds %d bytes" % len(s.encode()))
    if "ops" in kinds:
        expected = [cap(LONG[k]) for k in sorted(set(TRACE_NAMES))]
        got = [r[0] for r in db.execute(
            "SELECT DISTINCT d.s FROM region o JOIN region_detail x ON x.region_id = o.id"
            " JOIN dict d ON d.id = o.name_id WHERE length(d.s) > 1000")]
        want("trace op names", got, expected)
        # B is in both traces under one dict entry; A and C once per trace
        per = dict(db.execute(
            "SELECT d.s, count(DISTINCT o.source_id) FROM region o JOIN region_detail x"
            " ON x.region_id = o.id JOIN dict d ON d.id = o.name_id WHERE length(d.s) > 1000"
            " GROUP BY o.name_id"))
        traces = db.execute("SELECT count(*) FROM trace").fetchone()[0]
        if traces < 2 or any(v != traces for v in per.values()) or len(per) != 3:
            bad.append("names per trace: %s over %d traces" % (list(per.values()), traces))
    if "frame" in kinds:
        got = [r[0] for r in db.execute(
            "SELECT d.s FROM frame f JOIN dict d ON d.id = f.name_id WHERE length(d.s) > 1000")]
        want("frame names", got, [cap(LONG_FRAME)])
        depth = db.execute(
            "WITH RECURSIVE up(id, parent, depth) AS ("
            " SELECT id, parent_id, 1 FROM stack_node WHERE id IN (SELECT leaf_id FROM stack_sample)"
            " UNION ALL SELECT n.id, n.parent_id, up.depth + 1 FROM up JOIN stack_node n"
            " ON n.id = up.parent) SELECT max(depth) FROM up").fetchone()[0]
        if depth != 4096:
            bad.append("deepest stack: %s frames, expected 4096" % depth)
    if "run" in kinds:
        got = [r[0] for r in db.execute("SELECT name FROM run WHERE length(name) > 1000")]
        want("run names", got, [cap(LONG_RUN)])
        got = [r[0] for r in db.execute("SELECT strategy FROM run WHERE length(strategy) > 1000")]
        want("strategies", got, [cap(LONG_STRATEGY)])
    if "sweep" in kinds:
        got = [r[0] for r in db.execute("SELECT name FROM sweep WHERE length(name) > 1000")]
        want("sweep names", got, [cap(LONG_SWEEP)])
    print("\n".join(bad))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "cap":
        print("\n".join(cap(a) for a in args))
    elif cmd == "capa":
        print(cap("a" * int(args[0])))
    elif cmd == "trace":
        trace(*args)
    elif cmd == "bigtrace":
        bigtrace(args[0], args[1], int(args[2]))
    elif cmd == "dump":
        dump(args[0], args[1], int(args[2]), args[3])
    elif cmd == "check":
        check(args[0], args[1:])
    elif cmd == "long":
        sys.stdout.write({"run": LONG_RUN, "sweep": LONG_SWEEP,
                          "strategy": LONG_STRATEGY}[args[0]])


if __name__ == "__main__":
    main()
