#!/bin/bash
# call_layout.sh — regions' caller edges packed (issue 38, round
# fourteen): a unit's region_call rows (cProfile's callers) are
# region_call_pack rows whose `edges` blob is a column array (a width
# byte per column, then each column's values at that width: a mask of
# NULL columns, caller_key, callee_key, calls, prim_calls, self_ns,
# total_ns), read here by an independent decoder (python's
# int.from_bytes) against the dumps as python's pstats reads them, in the dump's
# order; the region_call table of the sqlite3 shell's extension and of
# `amdahl sql` shows them row by row; a store of schema 16 (a
# region_call row per edge) converts at the next ingest with its rows,
# order and `stats` unchanged; a replaced dump's edges go with it; a
# damaged blob is refused by name.
test_description='caller edges: packed rows, the region_call table, migration of schema-16 stores'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every case reads the packed blobs (region_call_pack) of the SQLite store file or converts a schema 16 file; cProfile on ClickHouse is cprofile.sh'

S=$TMP/new.db
O=$TMP/old16.db
D=$TMP/dumps
# every edge in store order: file, caller and callee (file:line:name), counts and
# times. The region keys are named once into an indexed temporary table
# (region is a virtual table: joined twice as subqueries it was scanned
# once per edge, ~3 min a query on 6,000 edges under load)
ROWS="CREATE TEMP TABLE k AS SELECT r.source_id AS s, r.key AS key,
  coalesce(f.s, '') || ':' || coalesce(r.line, 0) || ':' || n.s AS k
  FROM region r JOIN dict n ON n.id = r.name_id LEFT JOIN dict f ON f.id = r.file_id;
 CREATE INDEX temp.k_key ON k(s, key);
 SELECT s.path, a.k, b.k, quote(c.calls), quote(c.prim_calls), quote(c.self_ns), quote(c.total_ns)
 FROM (SELECT rowid AS o, * FROM region_call) c JOIN source s ON s.id = c.source_id
 JOIN k a ON a.s = c.source_id AND a.key = c.caller_key
 JOIN k b ON b.s = c.source_id AND b.key = c.callee_key
 ORDER BY c.o"
# the blobs as read by python (7 width bytes, then column after column n
# signed little-endian numbers of that width: the null mask, caller_key,
# callee_key, calls, prim_calls, self_ns, total_ns):
# SOURCE|CALLER|CALLEE|CALLS|PRIM|SELF|TOTAL
decoded() {
	"$PY" - "$1" <<-\PYEOF
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	for src, n, blob in db.execute("SELECT source_id, n, edges FROM region_call_pack ORDER BY rowid"):
	    w, at, cols = blob[:7], 7, []
	    assert w[0] == 1 and all(x in (0, 1, 2, 4, 8) for x in w), list(w)
	    for c in range(7):
	        cols.append([int.from_bytes(blob[at + i * w[c]:at + (i + 1) * w[c]], "little", signed=True) for i in range(n)])
	        at += w[c] * n
	    assert at == len(blob), (at, len(blob))
	    for i in range(n):
	        v = [src, cols[1][i], cols[2][i]] + [None if cols[0][i] >> k & 1 else cols[3 + k][i] for k in range(4)]
	        print("|".join("NULL" if x is None else str(x) for x in v))
	PYEOF
}

test_expect_success PYTHON,SQLITE3 'setup: cProfile dumps; a 6,000-edge dump with old-style callers (a count alone); both ingested' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/cprofile_dumps.py" "$D" &&
	"$PY" - "$D/wide.prof" <<-\PYEOF &&
	import marshal, sys
	# 3,000 functions, each called from the two before it: one caller as
	# cProfile writes it (nc, cc, tt, ct), one as old pstats (nc alone)
	fn = lambda i: ("wide.py", 10 + i, "f%d" % i)
	st = {}
	for i in range(3000):
	    callers = {}
	    if i >= 1:
	        callers[fn(i - 1)] = (i % 7 + 1, i % 5 + 1, 0.001 * (i % 11), 0.002 * (i % 13))
	    if i >= 2:
	        callers[fn(i - 2)] = i % 9 + 1
	    st[fn(i)] = (i % 5 + 2, i % 7 + 2, 0.001 * (i % 11), 0.003 * (i % 13), callers)
	marshal.dump(st, open(sys.argv[1], "wb"))
	PYEOF
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$D/work.prof" "$D/big.prof" "$D/wide.prof"
'
test_expect_success PYTHON,SQLITE3 'region_call (sqlite3 extension) = pstats callers, dump by dump in the dump order; NULLs where pstats has a count alone; packs cut at 4,096 edges' '
	q "$S" "$ROWS" >"$TMP/got.txt" &&
	for f in work big wide; do printf "%s\n" "$D/$f.prof"; done >"$TMP/files.txt" &&
	"$PY" - "$TMP/files.txt" >"$TMP/want.txt" <<-\PYEOF &&
	import pstats, sys
	from decimal import Decimal, ROUND_HALF_UP  # as llround(s * 1e9) in C
	ns = lambda s: int(Decimal(s * 1e9).quantize(Decimal(1), rounding=ROUND_HALF_UP))
	k = lambda f: "%s:%d:%s" % ((f[0], f[1], f[2]) if f[:2] != ("~", 0) else ("", 0, f[2]))
	for path in open(sys.argv[1]).read().split():
	    for func, (_, _, _, _, callers) in pstats.Stats(path).stats.items():
	        for caller, v in callers.items():
	            c = list(v) if isinstance(v, tuple) else [v, None, None, None]
	            if isinstance(v, tuple):
	                c[2:] = [ns(c[2]), ns(c[3])]
	            print("|".join([path, k(caller), k(func)] + ["NULL" if x is None else str(x) for x in c]))
	PYEOF
	test_eq 5997 "$(grep -c "/wide.prof|" "$TMP/want.txt")" &&
	test_eq "$(sha256sum <"$TMP/want.txt")" "$(sha256sum <"$TMP/got.txt")" &&
	test_eq "2998" "$(grep -c "/wide.prof|.*|NULL|NULL|NULL$" "$TMP/got.txt")" &&
	wide=$(sqlite3 "$S" "SELECT id FROM source WHERE path LIKE '"'%wide.prof'"'") &&
	test_eq "4096
1901" "$(sqlite3 "$S" "SELECT n FROM region_call_pack WHERE source_id = $wide ORDER BY rowid")" &&
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name = '"'region_call'"'")"
'
test_expect_success PYTHON,SQLITE3 'the blobs decoded by python = the region_call rows in order; amdahl sql sees the same rows; equality on source_id' '
	decoded "$S" >"$TMP/blob.txt" &&
	q "$S" "SELECT source_id, caller_key, callee_key, quote(calls), quote(prim_calls), quote(self_ns), quote(total_ns) FROM region_call" >"$TMP/vtab.txt" &&
	test_eq "$(wc -l <"$TMP/got.txt")" "$(wc -l <"$TMP/vtab.txt")" &&
	test_eq "$(sha256sum <"$TMP/blob.txt")" "$(sha256sum <"$TMP/vtab.txt")" &&
	test_eq "$(grep "^$wide|" "$TMP/blob.txt" | sha256sum)" \
		"$(q "$S" "SELECT source_id, caller_key, callee_key, quote(calls), quote(prim_calls), quote(self_ns), quote(total_ns) FROM region_call WHERE source_id = $wide" | sha256sum)" &&
	test_status 0 "$AMDAHL" --store "$S" sql "SELECT count(*) AS n, sum(calls) AS c, sum(total_ns) AS t FROM region_call" &&
	test_contains "$(q "$S" "SELECT count(*), sum(calls), sum(total_ns) FROM region_call" | tr "|" "\t")" "$OUT"
'

# old16 STORE: rewrites STORE's caller edges in the layout of schema 16
# (a region_call row each, rowids in store order) and forgets migration 17
old16() {
	q "$1" "CREATE TABLE call_rows AS SELECT rowid AS k, * FROM region_call" &&
	sqlite3 "$1" "BEGIN;
	CREATE TABLE region_call(source_id INTEGER NOT NULL, caller_key INTEGER NOT NULL,
	 callee_key INTEGER NOT NULL, calls INTEGER, prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER);
	INSERT INTO region_call SELECT source_id, caller_key, callee_key, calls, prim_calls, self_ns,
	 total_ns FROM call_rows ORDER BY k;
	CREATE INDEX region_call_source ON region_call(source_id, callee_key);
	DROP TABLE call_rows; DROP TABLE region_call_pack;
	DELETE FROM schema_version WHERE version > 16;
	COMMIT;"
}
test_expect_success PYTHON,SQLITE3 'a schema 16 store: read-only commands ask for an ingest, the next ingest converts it (0 added)' '
	cp "$S" "$O" && old16 "$O" &&
	test_eq "$(wc -l <"$TMP/got.txt")" "$(sqlite3 "$O" "SELECT count(*) FROM region_call")" &&
	test_status 2 "$AMDAHL" --store "$O" stats --json &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest "$D/work.prof" "$D/big.prof" "$D/wide.prof" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success PYTHON,SQLITE3 'the converted store: the same rows in the same order, the same pack rows byte for byte, regions --json identical' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '"'region_call'"'")" &&
	test_eq "$(q "$S" "$ROWS" | sha256sum)" "$(q "$O" "$ROWS" | sha256sum)" &&
	test_eq "$(sqlite3 "$S" "SELECT source_id, n, hex(edges) FROM region_call_pack ORDER BY rowid" | sha256sum)" \
		"$(sqlite3 "$O" "SELECT source_id, n, hex(edges) FROM region_call_pack ORDER BY rowid" | sha256sum)" &&
	test_status 0 "$AMDAHL" --store "$S" regions "$D/wide.prof" -n 0 --json && want=$OUT &&
	test_status 0 "$AMDAHL" --store "$O" regions "$D/wide.prof" -n 0 --json &&
	test_eq "$want" "$(printf "%s" "$OUT" | sed "s|$O|$S|g")"
'
test_expect_success SQLITE3 'a schema 16 store with two sources interleaved and NULLs: packed as stretches, order and NULLs kept' '
	cp "$O" "$TMP/mix.db" && old16 "$TMP/mix.db" &&
	sqlite3 "$TMP/mix.db" "UPDATE region_call SET source_id = CASE WHEN rowid % 3 = 0 THEN 1 ELSE source_id END,
	 calls = CASE WHEN rowid % 5 = 0 THEN NULL ELSE calls END, self_ns = CASE WHEN rowid % 7 = 0 THEN NULL ELSE self_ns END,
	 total_ns = CASE WHEN rowid % 11 = 0 THEN -5 ELSE total_ns END" &&
	want=$(sqlite3 "$TMP/mix.db" "SELECT source_id, caller_key, callee_key, quote(calls), quote(prim_calls), quote(self_ns), quote(total_ns) FROM region_call ORDER BY rowid" | sha256sum) &&
	stretches=$(sqlite3 "$TMP/mix.db" "SELECT sum((n + 4095) / 4096) FROM (SELECT count(*) AS n FROM (SELECT rowid, source_id, sum(d) OVER (ORDER BY rowid) AS g FROM (SELECT rowid, source_id, source_id IS NOT lag(source_id) OVER (ORDER BY rowid) AS d FROM region_call)) GROUP BY g)") &&
	test_status 0 "$AMDAHL" --store "$TMP/mix.db" ingest -q "$D/work.prof" &&
	test_eq "$want" "$(q "$TMP/mix.db" "SELECT source_id, caller_key, callee_key, quote(calls), quote(prim_calls), quote(self_ns), quote(total_ns) FROM region_call" | sha256sum)" &&
	test_eq "$stretches" "$(sqlite3 "$TMP/mix.db" "SELECT count(*) FROM region_call_pack")"
'
test_expect_success PYTHON,SQLITE3 'a changed dump replaces its edges: none of the old ones left, the new ones = pstats' '
	cp "$D/wide.prof" "$TMP/dump.prof" &&
	test_status 0 "$AMDAHL" --store "$TMP/rep.db" ingest -q "$TMP/dump.prof" &&
	test_eq "2|5997" "$(sqlite3 "$TMP/rep.db" "SELECT count(*), sum(n) FROM region_call_pack")" &&
	cp "$D/work.prof" "$TMP/dump.prof" &&
	test_status 0 "$AMDAHL" --store "$TMP/rep.db" ingest "$TMP/dump.prof" &&
	test_contains "0 added, 1 replaced" "$OUT" &&
	test_eq ok "$("$PY" "$AMDAHL_ROOT/tests/oracle/regions_oracle.py" cprofile-callers "$TMP/dump.prof" "$TMP/rep.db" "$(sqlite3 "$TMP/rep.db" "SELECT path FROM source")" 2>&1)" &&
	test_eq "1|$(grep -c "/work.prof|" "$TMP/want.txt")" "$(sqlite3 "$TMP/rep.db" "SELECT count(*), sum(n) FROM region_call_pack")"
'
test_expect_success SQLITE3 'a damaged blob: one line naming the store and the pack, exit 2, the store unchanged' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE region_call_pack SET edges = substr(edges, 1, length(edges) - 1) WHERE rowid = (SELECT min(rowid) FROM region_call_pack)" &&
	len=$(sqlite3 "$TMP/bad.db" "SELECT length(edges) FROM region_call_pack WHERE rowid = (SELECT min(rowid) FROM region_call_pack)") &&
	d=$(store_digest "$TMP/bad.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT sum(calls) AS c FROM region_call" &&
	test_contains "region_call_pack 1: packed caller edges of $len bytes, not " "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad.db")"
'
test_done
