#!/bin/bash
# op_layout.sh — operator averages packed (issue 38, rounds thirteen and
# fifteen): a stretch of a unit's op_average rows sharing a run is one
# op_average_pack row whose `ops` blob is a column array (op_pack.h: the
# widths of the mask, name_id, rank, calls and role columns, their
# values at those widths, then the float64 self and total CUDA µs of the
# rows whose mask does not say 0), read here by an independent decoder
# (python's int.from_bytes and struct) against the itwinai CSVs as
# python's csv reads them; the op_average table of the sqlite3 shell's
# extension and of `amdahl sql` shows them row by row in file order; a
# store of schema 15 (one op_average row per operator) and one of schema
# 16 (fixed 56-byte records) convert at the next ingest with their rows,
# order and `stats` unchanged; a damaged blob is refused by name.
test_description='operator averages: packed rows, the op_average table, migration of schema-15 stores'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every case reads the packed blobs (op_average_pack) of the SQLite store file or converts a schema 15 file; itwinai on ClickHouse is ingest.sh and stats.sh'

S=$TMP/new.db
O=$TMP/old15.db
ITW=$DATA/itwinai-layout
# every row in store order: file, name, rank, self, total, calls, role
ROWS="SELECT s.path, d.s, o.rank, printf('%.6f', o.self_cuda_us), printf('%.6f', o.cuda_total_us),
 o.calls, o.role FROM (SELECT rowid AS k, * FROM op_average) o JOIN source s ON s.id = o.source_id
 JOIN dict d ON d.id = o.name_id ORDER BY o.k"

test_expect_success PYTHON,SQLITE3 'setup: the itwinai layout ingested' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$ITW"
'
test_expect_success PYTHON,SQLITE3 'op_average (sqlite3 extension) = the CSVs as python csv reads them, file by file in row order; one pack per file' '
	q "$S" "$ROWS" | cut -d"|" -f1-6 >"$TMP/got.txt" &&
	q "$S" "SELECT DISTINCT path FROM source WHERE kind = '"'itwinai-csv'"' OR path LIKE '"'%.csv'"'" | sort >"$TMP/files.txt" &&
	"$PY" - "$TMP/files.txt" >"$TMP/want.txt" <<-\PYEOF &&
	import csv, sys
	for path in open(sys.argv[1]).read().split():
	    for r in csv.DictReader(open(path)):
	        print("%s|%s|%s|%.6f|%.6f|%s" % (path, r["name"], r["global_rank"],
	              float(r["self_cuda_time_total"]), float(r["cuda_time_total"]), r["calls"]))
	PYEOF
	test_eq 2826 "$(wc -l <"$TMP/want.txt")" &&
	test_eq "$(sort "$TMP/want.txt" | sha256sum)" "$(sort "$TMP/got.txt" | sha256sum)" &&
	test_eq "$(sha256sum <"$TMP/want.txt")" "$(sort -s -t"|" -k1,1 "$TMP/got.txt" | sha256sum)" &&
	test_eq "14|2826" "$(sqlite3 "$S" "SELECT count(*), sum(n) FROM op_average_pack")" &&
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name = '"'op_average'"'")"
'
# the python decoder of the column array: prints every row as
# run|source|name|rank|self|total|calls|role (NULL as empty)
cat >"$TMP/decode.py" <<-\PYEOF
import sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
for rowid, src, run, n, ops in db.execute("SELECT rowid, source_id, run_id, n, ops FROM op_average_pack ORDER BY rowid"):
    w, at, cols = ops[:5], 5, []
    assert w[0] == 1 and all(x in (0, 1, 2, 4, 8) for x in w), w
    for k in w:
        cols.append([int.from_bytes(ops[at + k * i:at + k * (i + 1)], "little", signed=True) for i in range(n)])
        at += k * n
    mask, name, rank, calls, role = cols
    dbl = {}
    for bit in (32, 64):
        dbl[bit] = []
        for i in range(n):
            if mask[i] & bit:
                dbl[bit].append(0.0)
            else:
                dbl[bit].append(struct.unpack_from("<d", ops, at)[0])
                at += 8
    assert at == len(ops), (at, len(ops))
    for i in range(n):
        v = [run, src, name[i], rank[i], dbl[32][i], dbl[64][i], calls[i], role[i]]
        for bit, col in ((1, 3), (2, 4), (4, 5), (8, 6), (16, 7)):
            if mask[i] & bit:
                v[col] = None
        fmt = repr if sys.argv[2:] == ["repr"] else (lambda x: "%.6f" % x)
        print("|".join("" if x is None else (fmt(x) if isinstance(x, float) else str(x)) for x in v))
PYEOF
test_expect_success PYTHON,SQLITE3 'the blobs decoded by python (int.from_bytes, struct: column widths, the doubles not 0) = the op_average rows; amdahl sql sees the same rows' '
	"$PY" "$TMP/decode.py" "$S" >"$TMP/blob.txt" &&
	q "$S" "SELECT run_id, source_id, name_id, rank, printf('"'%.6f'"', self_cuda_us),
	 printf('"'%.6f'"', cuda_total_us), calls, role FROM op_average" >"$TMP/vtab.txt" &&
	test_eq 2826 "$(wc -l <"$TMP/vtab.txt")" &&
	test_eq "$(sha256sum <"$TMP/blob.txt")" "$(sha256sum <"$TMP/vtab.txt")" &&
	test_status 0 "$AMDAHL" --store "$S" sql "SELECT count(*) AS n, sum(calls) AS c, sum(role) AS r FROM op_average" &&
	test_contains "$(q "$S" "SELECT count(*), sum(calls), sum(role) FROM op_average" | tr "|" "\t")" "$OUT" &&
	test_status 0 "$PY" -c "import sqlite3, sys
b = sqlite3.connect(sys.argv[1]).execute(\"SELECT sum(length(ops)), sum(n) FROM op_average_pack\").fetchone()
sys.exit(0 if b[0] < 20 * b[1] else 1)" "$S"
'

# old15 STORE: rewrites STORE's operator averages in the layout of
# schema 15 (an op_average row each, rowids in store order) and forgets
# migration 16
old15() {
	q "$1" "CREATE TABLE op_rows AS SELECT rowid AS k, * FROM op_average" &&
	sqlite3 "$1" "BEGIN;
	CREATE TABLE op_average(run_id INTEGER, source_id INTEGER NOT NULL, name_id INTEGER NOT NULL,
	 rank INTEGER, self_cuda_us REAL, cuda_total_us REAL, calls INTEGER, role INTEGER);
	INSERT INTO op_average SELECT run_id, source_id, name_id, rank, self_cuda_us, cuda_total_us,
	 calls, role FROM op_rows ORDER BY k;
	CREATE INDEX op_average_run ON op_average(run_id);
	CREATE INDEX op_average_source ON op_average(source_id);
	DROP TABLE op_rows; DROP TABLE op_average_pack;
	DELETE FROM schema_version WHERE version > 15;
	COMMIT;"
}
test_expect_success PYTHON,SQLITE3 'a schema 15 store: read-only commands ask for an ingest, the next ingest converts it (0 added)' '
	cp "$S" "$O" && old15 "$O" &&
	test_eq 2826 "$(sqlite3 "$O" "SELECT count(*) FROM op_average")" &&
	test_status 2 "$AMDAHL" --store "$O" stats --json &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest "$ITW" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success PYTHON,SQLITE3 'the converted store: the same rows in the same order, the same pack rows byte for byte, stats --json identical' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '"'op_average'"'")" &&
	test_eq "$(q "$S" "$ROWS" | sha256sum)" "$(q "$O" "$ROWS" | sha256sum)" &&
	test_eq "$(sqlite3 "$S" "SELECT source_id, run_id, n, hex(ops) FROM op_average_pack ORDER BY rowid" | sha256sum)" \
		"$(sqlite3 "$O" "SELECT source_id, run_id, n, hex(ops) FROM op_average_pack ORDER BY rowid" | sha256sum)" &&
	test_status 0 "$AMDAHL" --store "$S" stats --json && want=$OUT &&
	test_status 0 "$AMDAHL" --store "$O" stats --json &&
	test_eq "$want" "$OUT"
'
# old16 STORE: rewrites STORE's op_average_pack blobs as schema 16's
# fixed 56-byte records (python struct, from the rows the extension
# shows) and forgets migration 17
old16() {
	"$PY" - "$1" "$AMDAHL_SQLEXT" <<-\PYEOF &&
	import sqlite3, struct, sys
	db = sqlite3.connect(sys.argv[1])
	db.enable_load_extension(True)
	db.load_extension(sys.argv[2])
	rows = db.execute("SELECT rowid >> 32, name_id, rank, calls, role, self_cuda_us, cuda_total_us FROM op_average ORDER BY rowid").fetchall()
	packs = {}
	for pack, *v in rows:
	    nulls = sum(bit for bit, x in zip((0, 1, 8, 16, 2, 4), v) if x is None)
	    name, rank, calls, role, s, t = (0 if x is None else x for x in v)
	    packs.setdefault(pack, []).append(struct.pack("<qqqqddq", name, rank, calls, role, s, t, nulls))
	for pack, recs in packs.items():
	    db.execute("UPDATE op_average_pack SET ops = ? WHERE rowid = ?", (b"".join(recs), pack))
	db.execute("DELETE FROM schema_version WHERE version > 16")
	db.commit()
	PYEOF
	test_eq "$(sqlite3 "$1" "SELECT 56 * sum(n) FROM op_average_pack")" "$(sqlite3 "$1" "SELECT sum(length(ops)) FROM op_average_pack")"
}
test_expect_success PYTHON,SQLITE3 'a schema 16 store (56-byte records): read-only commands ask for an ingest; the ingest converts it: the same rows, pack bytes and stats --json' '
	cp "$S" "$TMP/s16.db" && sqlite3 "$TMP/s16.db" "UPDATE op_average_pack SET ops = ops" && old16 "$TMP/s16.db" &&
	test_status 2 "$AMDAHL" --store "$TMP/s16.db" stats --json &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$TMP/s16.db" ingest "$ITW" &&
	test_contains "0 added, 0 replaced" "$OUT" &&
	test_eq 0 "$(sqlite3 "$TMP/s16.db" "SELECT count(*) FROM op_average_pack WHERE length(ops) = 56 * n")" &&
	test_eq "$(q "$S" "$ROWS" | sha256sum)" "$(q "$TMP/s16.db" "$ROWS" | sha256sum)" &&
	test_eq "$(sqlite3 "$S" "SELECT rowid, source_id, run_id, n, hex(ops) FROM op_average_pack ORDER BY rowid" | sha256sum)" \
		"$(sqlite3 "$TMP/s16.db" "SELECT rowid, source_id, run_id, n, hex(ops) FROM op_average_pack ORDER BY rowid" | sha256sum)" &&
	test_status 0 "$AMDAHL" --store "$S" stats --json && want=$OUT &&
	test_status 0 "$AMDAHL" --store "$TMP/s16.db" stats --json &&
	test_eq "$want" "$OUT"
'
test_expect_success PYTHON,SQLITE3 'a schema 16 store with NULLs, negative and -0 values: converted with its NULLs and values (python decoder); an unknown NULL bit refused, the store unchanged' '
	cp "$S" "$TMP/n16.db" &&
	sqlite3 "$TMP/n16.db" "UPDATE op_average_pack SET ops = ops" && old16 "$TMP/n16.db" &&
	"$PY" - "$TMP/n16.db" <<-\PYEOF &&
	import sqlite3, struct, sys
	db = sqlite3.connect(sys.argv[1])
	rowid, ops = db.execute("SELECT rowid, ops FROM op_average_pack ORDER BY rowid LIMIT 1").fetchone()
	recs = [list(struct.unpack_from("<qqqqddq", ops, 56 * i)) for i in range(len(ops) // 56)]
	recs[0][1:7] = [0, 0, 0, 0.0, 0.0, 1 | 2 | 4 | 8 | 16]
	recs[1][1:6] = [-7, -(1 << 40), -3, -0.0, -1.5e3]
	recs[1][6] = 0
	recs[2][4:6] = [1e-310, 5e-324]
	db.execute("UPDATE op_average_pack SET ops = ? WHERE rowid = ?", (b"".join(struct.pack("<qqqqddq", *r) for r in recs), rowid))
	db.commit()
	PYEOF
	cp "$TMP/n16.db" "$TMP/bad16.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/n16.db" ingest -q "$ITW" &&
	"$PY" "$TMP/decode.py" "$TMP/n16.db" repr >"$TMP/n16.all" && head -3 "$TMP/n16.all" >"$TMP/n16.txt" &&
	test_eq "||||" "$(sed -n 1p "$TMP/n16.txt" | cut -d"|" -f4-)" &&
	test_eq "-7|0.0|-1500.0|-1099511627776|-3" "$(sed -n 2p "$TMP/n16.txt" | cut -d"|" -f4-8)" &&
	test_eq "1e-310|5e-324" "$(sed -n 3p "$TMP/n16.txt" | cut -d"|" -f5-6)" &&
	test_eq "$(sed -n 1,3p "$TMP/n16.txt" | cut -d"|" -f3-)" "$(q "$TMP/n16.db" "SELECT name_id, rank, self_cuda_us, cuda_total_us, calls, role FROM op_average LIMIT 3" |
		"$PY" -c "import sys
for l in sys.stdin.read().split():
    v = l.split(\"|\")
    print(\"|\".join(x if i in (0, 1, 4, 5) or x == \"\" else repr(float(x)) for i, x in enumerate(v)))")" &&
	"$PY" -c "import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ops = db.execute(\"SELECT ops FROM op_average_pack WHERE rowid = 1\").fetchone()[0]
db.execute(\"UPDATE op_average_pack SET ops = ? WHERE rowid = 1\", (ops[:104] + (256).to_bytes(8, \"little\") + ops[112:],))
db.commit()" "$TMP/bad16.db" &&
	d=$(store_digest "$TMP/bad16.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad16.db" ingest -q "$ITW" &&
	test_contains "op_average_pack: record 1 has an unknown NULL bit" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad16.db")"
'
test_expect_success SQLITE3 'a schema 15 store with rows of two runs interleaved and NULLs: packed as stretches, order and NULLs kept' '
	cp "$O" "$TMP/mix.db" && old15 "$TMP/mix.db" &&
	sqlite3 "$TMP/mix.db" "UPDATE op_average SET run_id = CASE WHEN rowid % 3 = 0 THEN NULL ELSE run_id END,
	 rank = CASE WHEN rowid % 5 = 0 THEN NULL ELSE rank END, calls = CASE WHEN rowid % 7 = 0 THEN NULL ELSE calls END,
	 self_cuda_us = CASE WHEN rowid % 11 = 0 THEN NULL ELSE self_cuda_us END" &&
	want=$(sqlite3 "$TMP/mix.db" "SELECT quote(run_id), source_id, name_id, quote(rank), quote(self_cuda_us), quote(cuda_total_us), quote(calls), quote(role) FROM op_average ORDER BY rowid" | sha256sum) &&
	stretches=$(sqlite3 "$TMP/mix.db" "SELECT count(*) FROM (SELECT rowid, source_id, run_id, lag(run_id, 1, -1) OVER (ORDER BY rowid) AS p, lag(source_id) OVER (ORDER BY rowid) AS ps FROM op_average) WHERE run_id IS NOT p OR source_id IS NOT ps") &&
	test_status 0 "$AMDAHL" --store "$TMP/mix.db" ingest -q "$ITW" &&
	test_eq "$want" "$(q "$TMP/mix.db" "SELECT quote(run_id), source_id, name_id, quote(rank), quote(self_cuda_us), quote(cuda_total_us), quote(calls), quote(role) FROM op_average" | sha256sum)" &&
	test_eq "$stretches" "$(sqlite3 "$TMP/mix.db" "SELECT count(*) FROM op_average_pack")"
'
test_expect_success SQLITE3 'a damaged blob: one line naming the store and the pack, exit 2, the store unchanged' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE op_average_pack SET ops = substr(ops, 1, length(ops) - 1) WHERE rowid = (SELECT min(rowid) FROM op_average_pack)" &&
	len=$(sqlite3 "$TMP/bad.db" "SELECT length(ops) FROM op_average_pack ORDER BY rowid LIMIT 1") &&
	d=$(store_digest "$TMP/bad.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT sum(calls) AS c FROM op_average" &&
	test_contains "op_average_pack 1: packed ops of $len bytes, not" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad.db")"
'
test_done
