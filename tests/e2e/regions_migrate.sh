#!/bin/bash
# regions_migrate.sh — schema 10 (issue 32): a trace's ops were rows of
# trace_op and, derived from them, rows of region; now they are region
# rows with a region_detail row each (category, shortest and longest
# call, place among the trace's ops). A store in schema 9's layout — the
# same store with trace_op rebuilt from the details in the trace's order
# and region_detail dropped, as an older amdahl left it — is converted by
# the next ingest: every op paired with its region, the details equal to
# those of a fresh ingest, trace_op gone, and trace show, regions and
# scaling the same byte for byte.
test_description='a schema 9 store: trace_op rows become region details, outputs unchanged'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'a schema 9 SQLite store file converted in place; ClickHouse stores have no schema 9 layout'
S="$TMP/s.db"
O="$TMP/old.db"
CPU="$DATA/cpu-strong-scaling/mlruns"
GPU="$DATA/gpu-batch-sweep/mlruns"

# details STORE — every op's detail with its region, by file, rank and place
DETAILS="SELECT s.path, coalesce(g.rank, -1), d.seq, n.s, k.s, coalesce(c.s, ''), g.calls,
 g.self_ns, g.total_ns, d.min_ns, d.max_ns FROM region_detail d JOIN region g ON g.id = d.region_id
 JOIN source s ON s.id = g.source_id JOIN dict n ON n.id = g.name_id JOIN dict k ON k.id = g.kind_id
 LEFT JOIN dict c ON c.id = d.category_id ORDER BY 1, 2, 3"

# outputs STORE DIR — trace show of every traced run, regions and scaling
# of every sweep
outputs() {
	local s=$1 o=$2 r w
	mkdir -p "$o" &&
	for r in $(q "$s" "SELECT DISTINCT r.ext_id FROM trace t JOIN run r ON r.id = t.run_id ORDER BY 1"); do
		"$AMDAHL" --store "$s" trace show "$r" -n 0 >"$o/trace.$r" 2>&1
		"$AMDAHL" --store "$s" trace show "$r" --json >"$o/trace-json.$r" 2>&1
	done
	for w in $(q "$s" "SELECT name FROM sweep ORDER BY 1"); do
		"$AMDAHL" --store "$s" regions "$w" -n 0 >"$o/regions.$w" 2>&1
		"$AMDAHL" --store "$s" scaling --sweep "$w" --json >"$o/scaling.$w" 2>&1
	done
	sed -i "s#$(store_name "$s")#STORE#g" "$o"/*
}

test_expect_success SQLITE3,SQLITE_STORE 'setup: CPU and GPU sweeps with their traces; their outputs' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$CPU" "$GPU" &&
	test_true "ops with details" test "$(q "$S" "SELECT count(*) FROM region_detail")" -gt 1000 &&
	test_eq 0 "$(q "$S" "SELECT count(*) FROM sqlite_master WHERE name = '"'trace_op'"'")" &&
	outputs "$S" "$TMP/new"
'
test_expect_success SQLITE3,SQLITE_STORE 'setup: the same store in the layout of schema version 9' '
	cp "$S" "$O" &&
	region_rows "$O" &&
	sqlite3 "$O" "BEGIN;
	CREATE TABLE trace_op(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,
	 cat_id INTEGER, count INTEGER, total_ns INTEGER, self_ns INTEGER,
	 min_ns INTEGER, max_ns INTEGER);
	INSERT INTO trace_op SELECT t.id, g.name_id, d.category_id, g.calls, g.total_ns, g.self_ns,
	 d.min_ns, d.max_ns FROM region_detail d JOIN region g ON g.id = d.region_id
	 JOIN trace t ON t.source_id = g.source_id AND t.rank IS g.rank ORDER BY t.id, d.seq;
	CREATE INDEX trace_op_trace ON trace_op(trace_id);
	DROP TABLE region_detail;
	DELETE FROM schema_version WHERE version > 9;
	COMMIT;" &&
	test_eq "$(q "$S" "SELECT count(*) FROM region_detail")" "$(q "$O" "SELECT count(*) FROM trace_op")"
'
test_expect_success SQLITE3,SQLITE_STORE 'a schema 9 store: read-only commands ask for an ingest, the next ingest converts it (0 added)' '
	test_status 2 "$AMDAHL" --store "$O" regions cpu-strong-scaling &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest "$CPU" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success SQLITE3,SQLITE_STORE 'the converted store: every op a region with its detail, as a fresh ingest has them; no trace_op' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(q "$O" "SELECT count(*) FROM sqlite_master WHERE name = '"'trace_op'"'")" &&
	test_eq "$(q "$S" "$DETAILS" | sha256sum)" "$(q "$O" "$DETAILS" | sha256sum)" &&
	test_eq "$(q "$S" "SELECT count(*) FROM region")" "$(q "$O" "SELECT count(*) FROM region")"
'
test_expect_success SQLITE3,SQLITE_STORE 'the converted store: trace show, regions and scaling byte for byte' '
	outputs "$O" "$TMP/old" &&
	test_eq "$(ls "$TMP/new")" "$(ls "$TMP/old")" &&
	bad="" &&
	for f in "$TMP/new"/*; do cmp -s "$f" "$TMP/old/${f##*/}" || bad="$bad ${f##*/}"; done &&
	test_eq "" "$bad" &&
	test_contains "aten::" "$(cat "$TMP/old"/trace.*)"
'
test_expect_success SQLITE3,SQLITE_STORE 'twins: two ops of one name and the same numbers in two categories keep their own details' '
	cp "$S" "$TMP/twin.db" &&
	region_rows "$TMP/twin.db" &&
	t=$(q "$S" "SELECT min(id) FROM trace") &&
	sqlite3 "$TMP/twin.db" "BEGIN;
	CREATE TABLE trace_op(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,
	 cat_id INTEGER, count INTEGER, total_ns INTEGER, self_ns INTEGER,
	 min_ns INTEGER, max_ns INTEGER);
	INSERT INTO dict(s) VALUES('"'twin-op'"'), ('"'cat-a'"'), ('"'cat-b'"');
	INSERT INTO region(source_id, run_id, rank, kind_id, profiler_id, name_id, calls, prim_calls, self_ns, total_ns)
	 SELECT g.source_id, g.run_id, g.rank, g.kind_id, g.profiler_id, (SELECT id FROM dict WHERE s = '"'twin-op'"'), 3, 3, 7, 9
	 FROM region g JOIN trace t ON t.source_id = g.source_id AND t.rank IS g.rank JOIN region_detail d ON d.region_id = g.id
	 WHERE t.id = $t ORDER BY g.id LIMIT 2;
	INSERT INTO trace_op VALUES($t, (SELECT id FROM dict WHERE s = '"'twin-op'"'), (SELECT id FROM dict WHERE s = '"'cat-a'"'), 3, 9, 7, 1, 5),
	 ($t, (SELECT id FROM dict WHERE s = '"'twin-op'"'), (SELECT id FROM dict WHERE s = '"'cat-b'"'), 3, 9, 7, 2, 4);
	DROP TABLE region_detail;
	DELETE FROM schema_version WHERE version > 9;
	COMMIT;" &&
	test_status 0 "$AMDAHL" --store "$TMP/twin.db" ingest -q "$GPU" &&
	test_eq "cat-a 1 5 1|cat-b 2 4 2" "$(q "$TMP/twin.db" "SELECT group_concat(c.s || '"' '"' || d.min_ns || '"' '"' || d.max_ns || '"' '"' || d.seq, '"'|'"') FROM (SELECT * FROM region_detail ORDER BY region_id) d JOIN region g ON g.id = d.region_id JOIN dict n ON n.id = g.name_id JOIN dict c ON c.id = d.category_id WHERE n.s = '"'twin-op'"'")"
'
test_done
