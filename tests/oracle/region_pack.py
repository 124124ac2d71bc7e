#!/usr/bin/python3
"""region_pack.py WHAT DB — a store's packed regions read without
amdahl's code (Python's sqlite3 and int.from_bytes decoding the blobs of
region_pack: 16 width bytes, then column after column n signed
little-endian numbers of that width: the null mask, the id less id_lo,
rank, device, kind_id, profiler_id, name_id, file_id, line, key,
parent_key, calls, prim_calls, self_ns, total_ns, bytes):
  rows DB   every region as sqlite3 prints `SELECT * FROM region ORDER BY
            id` ("ID|SOURCE|RUN|RANK|...|BYTES", empty for NULL)
  check DB  "ok" when every pack's n is its blob's count, its id_lo and
            id_hi its least and greatest id, its ids ascending and no
            two packs' id ranges overlap, else the first bad pack"""
import sqlite3
import sys

FIELDS = 14


def decode(blob, n, id_lo):
    w = blob[:16]
    at = 16
    cols = []
    for c in range(16):
        vals = []
        for _ in range(n):
            vals.append(int.from_bytes(blob[at:at + w[c]], "little", signed=True) if w[c] else 0)
            at += w[c]
        cols.append(vals)
    if at != len(blob):
        raise ValueError("blob of %d bytes, read %d" % (len(blob), at))
    out = []
    for i in range(n):
        nulls = cols[0][i]
        f = [None if nulls >> k & 1 else cols[2 + k][i] for k in range(FIELDS)]
        out.append((id_lo + cols[1][i], f))
    return out


def packs(db):
    con = sqlite3.connect(db)
    return con.execute("SELECT rowid, source_id, run_id, n, id_lo, id_hi, regions"
                       " FROM region_pack ORDER BY id_lo").fetchall()


def region_rows(con):
    """A temp table `region` on connection con holding the store's
    regions as rows (decoded here), for oracles that query `region` as
    schema 14 stored it; nothing when the store has no region_pack."""
    if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'region_pack'").fetchone():
        return
    con.execute("CREATE TEMP TABLE region(id INTEGER PRIMARY KEY, source_id, run_id, rank,"
                " device, kind_id, profiler_id, name_id, file_id, line, key, parent_key,"
                " calls, prim_calls, self_ns, total_ns, bytes)")
    for _, src, run, n, lo, _, blob in con.execute(
            "SELECT rowid, source_id, run_id, n, id_lo, id_hi, regions FROM region_pack").fetchall():
        con.executemany("INSERT INTO temp.region VALUES(" + ",".join("?" * 17) + ")",
                        [[rid, src, run] + f for rid, f in decode(blob, n, lo)])


def call_decode(blob, n):
    """region_call_pack's blob: 7 width bytes, then column after column n
    signed little-endian numbers of that width (the null mask, caller_key,
    callee_key, calls, prim_calls, self_ns, total_ns); the n edges as
    [caller, callee, calls, prim_calls, self_ns, total_ns], None for NULL."""
    w, at, cols = blob[:7], 7, []
    for c in range(7):
        cols.append([int.from_bytes(blob[at + i * w[c]:at + (i + 1) * w[c]], "little", signed=True)
                     for i in range(n)])
        at += w[c] * n
    if at != len(blob) or len(w) != 7:
        raise ValueError("region_call_pack: %d bytes for %d edges" % (len(blob), n))
    return [[cols[1][i], cols[2][i]] + [None if cols[0][i] >> k & 1 else cols[3 + k][i]
                                        for k in range(4)] for i in range(n)]


def call_rows(con):
    """A temp table `region_call` on connection con holding the store's
    caller edges as rows (region_call_pack's blobs decoded here,
    call_decode), for oracles that query `region_call` as schema 16
    stored it; nothing when the store has no region_call_pack."""
    if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'region_call_pack'").fetchone():
        return
    con.execute("CREATE TEMP TABLE region_call(source_id, caller_key, callee_key, calls,"
                " prim_calls, self_ns, total_ns)")
    for src, n, blob in con.execute(
            "SELECT source_id, n, edges FROM region_call_pack ORDER BY rowid").fetchall():
        con.executemany("INSERT INTO temp.region_call VALUES(?,?,?,?,?,?,?)",
                        [[src] + e for e in call_decode(blob, n)])


def show(v):
    return "" if v is None else str(v)


def main():
    what, db = sys.argv[1], sys.argv[2]
    if what == "rows":
        for _, src, run, n, lo, _, blob in packs(db):
            for rid, f in decode(blob, n, lo):
                print("|".join([str(rid), str(src), show(run)] + [show(x) for x in f]))
        return
    last = None
    for rowid, _, _, n, lo, hi, blob in packs(db):
        ids = [rid for rid, _ in decode(blob, n, lo)]
        if len(ids) != n or not ids or ids[0] != lo or ids[-1] != hi or \
           any(a >= b for a, b in zip(ids, ids[1:])) or (last is not None and lo <= last):
            print("bad pack row %d" % rowid)
            return
        last = hi
    print("ok")


if __name__ == "__main__":
    main()
