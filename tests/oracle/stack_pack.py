#!/usr/bin/python3
"""stack_pack.py WHAT DB — a store's packed py-spy stacks read without
amdahl's code (Python's sqlite3 and struct decoding the blobs of
stack_node_pack and stack_sample_pack: records of little-endian int64
id, parent (0: none), frame; and of int64 leaf, process (0: none),
thread (0: none), samples and a float64 seconds):
  nodes DB    "ID|PARENT|FRAME|SOURCE" per node (PARENT empty at a root),
              by id, as sqlite3 prints `SELECT * FROM stack_node ORDER BY id`
  samples DB  "SOURCE|RUN|LEAF|PROCESS|THREAD|SAMPLES|SECONDS" per sample
              (empty for NULL), packs in rowid order, samples in blob
              order, as sqlite3 prints `SELECT * FROM stack_sample`
  check DB    "ok" when every row's n is its blob's count, a node pack's
              id_lo / id_hi its least and greatest id and its ids
              ascending, else the first bad row"""
import sqlite3
import struct
import sys


def opt(v):
    return "" if v == 0 else str(v)


def real(x):
    """x as sqlite3's shell prints a REAL: printf "%!.15g" (a point always)"""
    r = "%.15g" % x
    mant, e, exp = r.partition("e")
    if "." not in mant and mant.lstrip("-").isdigit():
        mant += ".0"
    return mant + e + exp


def node_packs(db):
    return db.execute("SELECT rowid, source_id, n, id_lo, id_hi, nodes FROM stack_node_pack"
                      " ORDER BY id_hi").fetchall()


def sample_packs(db):
    return db.execute("SELECT rowid, source_id, run_id, n, samples FROM stack_sample_pack"
                      " ORDER BY rowid").fetchall()


def nodes(db):
    out = []
    for _, src, _, _, _, b in node_packs(db):
        for i in range(0, len(b), 24):
            nid, parent, frame = struct.unpack_from("<qqq", b, i)
            out.append((nid, "%d|%s|%d|%d" % (nid, opt(parent), frame, src)))
    return [line for _, line in sorted(out)]


def samples(db):
    out = []
    for _, src, run, _, b in sample_packs(db):
        for i in range(0, len(b), 40):
            leaf, proc, thread, n, sec = struct.unpack_from("<qqqqd", b, i)
            out.append("|".join([str(src), "" if run is None else str(run), str(leaf),
                                 opt(proc), opt(thread), str(n), real(sec)]))
    return out


def check(db):
    for row, _, n, lo, hi, b in node_packs(db):
        ids = [struct.unpack_from("<q", b, i)[0] for i in range(0, len(b), 24)]
        if len(b) % 24 or n != len(ids) or not ids or lo != ids[0] or hi != ids[-1] \
                or ids != sorted(set(ids)):
            return "stack_node_pack row %d" % row
    for row, _, _, n, b in sample_packs(db):
        if len(b) % 40 or n != len(b) // 40:
            return "stack_sample_pack row %d" % row
    return "ok"


def main():
    what, path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(path)
    if what == "check":
        print(check(db))
    else:
        print("\n".join({"nodes": nodes, "samples": samples}[what](db)))


main()
