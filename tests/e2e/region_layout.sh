#!/bin/bash
# region_layout.sh — regions stored packed (issue 38, schema 15): a
# stretch of a unit's regions sharing a run is one region_pack row
# holding a column array (lib/store/packed/region_pack.h); the read-only
# virtual table region (region_sql.h) shows them as the rows they were.
# Checked against Python decoding the blobs (tests/oracle/region_pack.py),
# against SQLite's own table of the same rows for look-ups, and against
# a schema 14 copy of the store (a row per region) converted by the
# next ingest.
test_description='regions packed: the blobs, the virtual table, the migration from rows'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every case reads the region_pack blobs of the SQLite store file or converts a schema 14 file; regions on ClickHouse are clickhouse.sh and regions.sh'

S=$TMP/new.db
O=$TMP/old14.db
CPU="$DATA/cpu-strong-scaling/mlruns"
ORACLE="/usr/bin/python3 $AMDAHL_ROOT/tests/oracle/region_pack.py"

# the pack rows of a store byte for byte
pack_rows() {
	sqlite3 "$1" "SELECT source_id, run_id, n, id_lo, id_hi, hex(regions) FROM region_pack ORDER BY id_lo" | sha256sum
}
# outputs STORE — every region as `amdahl sql` prints it, and regions /
# scaling of the CPU sweep
outputs() {
	"$AMDAHL" --store "$1" sql "SELECT * FROM region ORDER BY id" &&
	"$AMDAHL" --store "$1" sql "SELECT * FROM region" &&
	"$AMDAHL" --store "$1" regions cpu-strong-scaling -n 0 &&
	"$AMDAHL" --store "$1" scaling --sweep cpu-strong-scaling --json
}

test_expect_success SQLITE3 'setup: the CPU sweep with its traces, the cProfile and py-spy files' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$CPU" "$DATA/profiles" "$DATA/pyspy" &&
	outputs "$S" >"$TMP/want.txt" &&
	test_true "regions" [ "$(q "$S" "SELECT count(*) FROM region")" -gt 1000 ]
'
test_expect_success SQLITE3 'packs, not rows: every region in a pack, one stretch of a unit per pack; no table of rows' '
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name = '\''region'\''")" &&
	test_eq "$(q "$S" "SELECT count(*) FROM region")" "$(sqlite3 "$S" "SELECT sum(n) FROM region_pack")" &&
	test_eq "$(sqlite3 "$S" "SELECT count(*) FROM region_pack")" \
		"$(q "$S" "SELECT count(*) FROM (SELECT DISTINCT source_id, run_id FROM region)")" &&
	test_true "smaller than 17 columns" [ "$(sqlite3 "$S" "SELECT sum(length(regions)) / sum(n) FROM region_pack")" -lt 40 ]
'
test_expect_success PYTHON,SQLITE3 'the blobs as python decodes them: the rows the virtual table shows' '
	test_eq ok "$($ORACLE check "$S")" &&
	$ORACLE rows "$S" >"$TMP/py.txt" && q "$S" "SELECT * FROM region ORDER BY id" >"$TMP/sq.txt" &&
	test_eq "$(wc -l <"$TMP/py.txt")" "$(q "$S" "SELECT count(*) FROM region")" &&
	test_eq "$(sha256sum <"$TMP/py.txt")" "$(sha256sum <"$TMP/sq.txt")" &&
	q "$S" "SELECT * FROM region" >"$TMP/scan.txt" &&
	test_eq "$(sha256sum <"$TMP/py.txt")" "$(sha256sum <"$TMP/scan.txt")"
'
test_expect_success SQLITE3 'look-ups by id, source, run and name: those of a table of the same rows; each name of a pack in region_pack_name' '
	cp "$S" "$TMP/t.db" &&
	q "$TMP/t.db" "CREATE TABLE rr AS SELECT * FROM region" &&
	for w in "id = 3" "id = 3.0" "id = 3.5" "id = '\''3'\''" "id = 0" "id = (SELECT max(id) + 1 FROM rr)" \
		"source_id = 3" "run_id = 2" "run_id IS NULL" "source_id = 3 AND run_id = 1" "id = 90 AND source_id = 2" \
		"name_id = (SELECT name_id FROM rr WHERE id = 5)" "name_id = -1" \
		"run_id = 1 AND name_id = (SELECT name_id FROM rr WHERE id = 5)"; do
		test_eq "$(q "$TMP/t.db" "SELECT * FROM rr WHERE $w ORDER BY id")" \
			"$(q "$TMP/t.db" "SELECT * FROM region WHERE $w ORDER BY id")" || return 1
	done &&
	test_eq "$(q "$TMP/t.db" "SELECT DISTINCT g.name_id, (SELECT p.id FROM region_pack p WHERE p.id_lo <= g.id ORDER BY p.id_lo DESC LIMIT 1) FROM rr g ORDER BY 1, 2")" \
		"$(q "$TMP/t.db" "SELECT name_id, pack FROM region_pack_name ORDER BY 1, 2")" &&
	test_contains "VIRTUAL TABLE INDEX 0:n" "$(q "$TMP/t.db" "EXPLAIN QUERY PLAN SELECT count(*) FROM run ru JOIN region g ON g.run_id = ru.id WHERE g.name_id = 7")" &&
	test_eq "$(q "$TMP/t.db" "SELECT g.id, d.seq FROM region_detail d JOIN rr g ON g.id = d.region_id ORDER BY 1")" \
		"$(q "$TMP/t.db" "SELECT g.id, d.seq FROM region_detail d JOIN region g ON g.id = d.region_id ORDER BY 1")" &&
	test_eq "$(q "$TMP/t.db" "SELECT a.id, b.id FROM rr a JOIN rr b ON b.source_id = a.source_id AND b.key = a.parent_key ORDER BY 1, 2")" \
		"$(q "$TMP/t.db" "SELECT a.id, b.id FROM region a JOIN region b ON b.source_id = a.source_id AND b.key = a.parent_key ORDER BY 1, 2")"
'
test_expect_success SQLITE3 'a schema 14 store (a row per region): read-only commands ask for an ingest, the next converts it to the same packs and outputs' '
	cp "$S" "$O" &&
	region_rows "$O" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '\''region_pack'\''")" &&
	test_status 2 "$AMDAHL" --store "$O" regions cpu-strong-scaling &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest -q "$CPU" &&
	test_eq "$(pack_rows "$S")" "$(pack_rows "$O")" &&
	outputs "$O" >"$TMP/got.txt" &&
	test_eq "$(sha256sum <"$TMP/want.txt")" "$(sha256sum <"$TMP/got.txt")"
'
test_expect_success SQLITE3 'a file linked to a run after the fact: its packs move with every region' '
	cp "$S" "$TMP/l.db" &&
	p=$(q "$TMP/l.db" "SELECT s.path FROM region_pack g JOIN source s ON s.id = g.source_id WHERE g.run_id IS NULL ORDER BY s.path LIMIT 1") &&
	test_true "an orphan with regions" [ -n "$p" ] &&
	n=$(q "$TMP/l.db" "SELECT count(*) FROM region g JOIN source s ON s.id = g.source_id WHERE s.path = '\''$p'\''") &&
	r=$(q "$TMP/l.db" "SELECT ext_id FROM run ORDER BY id LIMIT 1") &&
	test_status 0 "$AMDAHL" --store "$TMP/l.db" link "$p" "$r" &&
	test_eq 0 "$(sqlite3 "$TMP/l.db" "SELECT count(*) FROM region_pack g JOIN source s ON s.id = g.source_id WHERE s.path = '\''$p'\'' AND g.run_id IS NULL")" &&
	test_eq "$n" "$(q "$TMP/l.db" "SELECT count(*) FROM region g JOIN source s ON s.id = g.source_id JOIN run ru ON ru.id = g.run_id WHERE s.path = '\''$p'\'' AND ru.ext_id = '\''$r'\''")" &&
	test_eq "$r" "$(q "$TMP/l.db" "SELECT DISTINCT ru.ext_id FROM region g JOIN source s ON s.id = g.source_id JOIN run ru ON ru.id = g.run_id WHERE s.path = '\''$p'\''")"
'
test_expect_success SQLITE3 'a damaged blob: one line naming the row, exit 2 (the same from the regions scan, region_scan.c, as from the virtual table)' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE region_pack SET regions = substr(regions, 1, 21) WHERE rowid = (SELECT min(rowid) FROM region_pack)" &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT count(*) FROM region" &&
	test_contains "region_pack row 1: " "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	msg=${ERR#amdahl sql: } &&
	r=$(sqlite3 "$TMP/bad.db" "SELECT ru.ext_id FROM run ru JOIN region_pack g ON g.run_id = ru.id WHERE g.rowid = 1") &&
	test_true "pack 1 of a run" [ -n "$r" ] &&
	for c in "regions cpu-strong-scaling" "regions cpu-strong-scaling --kind op" "scaling --sweep cpu-strong-scaling" "regions $r"; do
		test_status 2 "$AMDAHL" --store "$TMP/bad.db" $c &&
		test_eq "amdahl ${c%% *}: $msg" "$ERR" || return 1
	done &&
	sqlite3 "$TMP/bad.db" "UPDATE region_pack SET n = n + 1 WHERE rowid = 2" &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT count(*) FROM region WHERE source_id = (SELECT source_id FROM region_pack WHERE rowid = 2)" &&
	test_contains "region_pack row 2" "$ERR"
'
# pack REGIONS FIELDS — pack 1 of the copy's store made anew by the
# amd_region_pack aggregate (id, then region_pack.h's fields) of its regions
repack() {
	sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$1" "CREATE TABLE nb AS SELECT amd_region_pack($2) AS b FROM region
		WHERE id BETWEEN (SELECT id_lo FROM region_pack WHERE rowid = 1) AND (SELECT id_hi FROM region_pack WHERE rowid = 1);
		UPDATE region_pack SET regions = (SELECT b FROM nb) WHERE rowid = 1; DROP TABLE nb"
}
test_expect_success SQLITE3 'one run'"'"'s regions (region_run.c): a name not in dict, a sum past 64 bits: one line naming the store and the pack, exit 2' '
	r=$(sqlite3 "$S" "SELECT ru.ext_id FROM run ru JOIN region_pack g ON g.run_id = ru.id WHERE g.rowid = 1") &&
	cp "$S" "$TMP/d.db" &&
	id=$(q "$TMP/d.db" "SELECT name_id FROM region WHERE id = (SELECT id_lo FROM region_pack WHERE rowid = 1)") &&
	sqlite3 "$TMP/d.db" "DELETE FROM dict WHERE id = $id" &&
	test_status 2 "$AMDAHL" --store "$TMP/d.db" regions "$r" &&
	test_eq "amdahl regions: $TMP/d.db: region_pack row 1: name id $id is not in dict" "$ERR" &&
	cp "$S" "$TMP/o.db" &&
	repack "$TMP/o.db" "id, rank, device, 1, 1, 1, NULL, NULL, key, parent_key, calls, prim_calls, 5000000000000000000, total_ns, bytes" &&
	test_status 2 "$AMDAHL" --store "$TMP/o.db" regions "$r" &&
	test_eq "amdahl regions: $TMP/o.db: region_pack row 1: the sum of a region'"'"'s self_ns is past 64 bits" "$ERR" &&
	cp "$S" "$TMP/p.db" &&
	repack "$TMP/p.db" "id, rank, device, kind_id, profiler_id, name_id, file_id, line, key, parent_key, calls, prim_calls, 5000000000000000000, total_ns, bytes" &&
	test_status 2 "$AMDAHL" --store "$TMP/p.db" regions "$r" &&
	test_eq "amdahl regions: $TMP/p.db: region_pack row 1: the sum of self_ns over a profiler and kind is past 64 bits" "$ERR"
'
test_done
