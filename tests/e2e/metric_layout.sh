#!/bin/bash
# metric_layout.sh — metric points packed per series (issue 19, round
# three): each (source, run, key) series is a metric_series row (a chunk
# row per 4096 points) whose `points` blob holds the steps, times and
# values as little-endian arrays, read here by an independent numpy
# decoder (tests/oracle/metric_series.py) against the metric files
# themselves; the metric_point table of `amdahl sql` and of the sqlite3
# shell's extension shows them row by row; stores of the two layouts
# before (a rowid table with two indexes, schema 4; one clustered B-tree,
# schema 5) convert at the next ingest with their points and `stats`
# unchanged; repeated steps are all kept; a changed run directory
# replaces only its own series; a damaged blob is refused by name.
test_description='metric points: packed series, migration of old stores, repeated steps'
. "$(dirname "$0")/../test-lib.sh"

cpu=$TMP/cpu
S=$TMP/new.db
O5=$TMP/old5.db
O4=$TMP/old4.db
ORACLE="$PY $AMDAHL_ROOT/tests/oracle/metric_series.py"
rdir="" mf="" rid="" key="" want="" others=""
# the points of a store as the independent decoder reads them
points_digest() { $ORACLE store "$1" | sha256sum | cut -c1-64; }
# the points as metric_point (the virtual table) shows them, in SQL order
VT_POINTS="SELECT r.ext_id, d.s, m.step, m.ts_ms, printf('%.6e', m.value) FROM metric_point m
 JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id ORDER BY 1, 2, 3, 4, 5"
# the series rows of runs other than RUN (ext_id), byte for byte
others_rows() { q "$1" "SELECT r.ext_id, d.s, m.chunk, m.n, hex(m.points) FROM metric_series m
 JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id WHERE r.ext_id <> '$2' ORDER BY 1, 2, 3" | sha256sum; }

# old_layout STORE VERSION: rewrites STORE's points in the layout of
# schema VERSION: 5 one clustered table (metric_point WITHOUT ROWID,
# seq the order in the series; metric_series lists (source, run, key)),
# 4 a rowid table with metric_point_run and metric_point_source indexes
old_layout() {
	q "$1" "CREATE TABLE mp_rows AS SELECT run_id, key_id, step, ts_ms, value, source_id, seq FROM metric_point" &&
	if [ "$2" = 5 ]; then
		sqlite3 "$1" "BEGIN;
		CREATE TABLE mp_old(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,
		  step INTEGER NOT NULL, ts_ms INTEGER, value REAL, source_id INTEGER NOT NULL,
		  seq INTEGER NOT NULL, PRIMARY KEY(run_id, key_id, step, source_id, seq)) WITHOUT ROWID;
		INSERT INTO mp_old SELECT * FROM mp_rows;
		DROP TABLE metric_series;
		CREATE TABLE metric_series(source_id INTEGER NOT NULL, run_id INTEGER NOT NULL,
		  key_id INTEGER NOT NULL, PRIMARY KEY(source_id, run_id, key_id)) WITHOUT ROWID;
		INSERT INTO metric_series SELECT DISTINCT source_id, run_id, key_id FROM mp_rows;
		DROP TABLE mp_rows;
		ALTER TABLE mp_old RENAME TO metric_point;
		DELETE FROM schema_version WHERE version > 5;
		COMMIT;"
	else
		sqlite3 "$1" "BEGIN;
		CREATE TABLE mp_old(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,
		  step INTEGER NOT NULL, ts_ms INTEGER, value REAL, source_id INTEGER NOT NULL);
		INSERT INTO mp_old SELECT run_id, key_id, step, ts_ms, value, source_id FROM mp_rows
		  ORDER BY source_id, run_id, key_id, seq;
		DROP TABLE metric_series; DROP TABLE mp_rows;
		ALTER TABLE mp_old RENAME TO metric_point;
		CREATE INDEX metric_point_run ON metric_point(run_id, key_id, step);
		CREATE INDEX metric_point_source ON metric_point(source_id);
		DELETE FROM schema_version WHERE version > 4;
		COMMIT;"
	fi
}

# Most cases read the SQLite file's own layout (metric_series blobs, the
# schema 4 and 5 layouts, the sqlite3 extension's query plan, a blob
# edited by hand): SQLITE_STORE. ClickHouse keeps a row per point on the
# server (docs/design.md "The ClickHouse backend"); there the cases left
# check that `amdahl sql` counts every line of the files, that a pulled
# copy shows them point for point, and that a changed file is replaced.
test_expect_success SQLITE3,NUMPY 'setup: the CPU sweep ingests (exit 0), its points as numpy reads the files' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$cpu" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu" &&
	$ORACLE files "$cpu" >"$TMP/files.txt"
'
test_expect_success SQLITE3,NUMPY,SQLITE_STORE 'the store holds series rows, no table of points' '
	test_eq "source_id run_id key_id chunk n points" "$(q "$S" "SELECT name FROM pragma_table_info('"'metric_series'"')" | tr "\n" " " | sed "s/ $//")" &&
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name = '"'metric_point'"'")" &&
	test_eq "$(find "$cpu" -path "*/metrics/*" -type f | wc -l)" "$(q "$S" "SELECT count(*) FROM metric_series")" &&
	test_eq ok "$($ORACLE check "$S")"
'
test_expect_success SQLITE3,NUMPY,SQLITE_STORE 'the blobs decoded by numpy are the metric files, bit for bit' '
	$ORACLE store "$S" >"$TMP/store.txt" &&
	test_eq "$(awk NF $(find "$cpu" -path "*/metrics/*" -type f) | wc -l)" "$(wc -l <"$TMP/store.txt")" &&
	test_eq "$(sha256sum <"$TMP/files.txt")" "$(sha256sum <"$TMP/store.txt")"
'
test_expect_success SQLITE3,NUMPY 'metric_point shows every point: amdahl sql and the sqlite3 extension agree with numpy' '
	test_eq "$(wc -l <"$TMP/files.txt")" "$(q "$S" "SELECT count(*) FROM metric_point")" &&
	test_status 0 "$AMDAHL" --store "$S" sql "SELECT count(*) AS n FROM metric_point" &&
	test_eq "$(wc -l <"$TMP/files.txt")" "$(echo "$OUT" | tail -1)" &&
	test_eq "$(awk -F"\t" "{printf \"%s|%s|%s|%s|%.6e\n\", \$1, \$2, \$3, \$4, \$5}" "$TMP/files.txt" | sort)" \
		"$(q "$S" "$VT_POINTS" | sort)"
'
test_expect_success SQLITE3,SQLITE_STORE 'metric_point reads only the asked series (run and key bound: an index search)' '
	test_contains "metric_point VIRTUAL TABLE INDEX 3" "$(q "$S" "EXPLAIN QUERY PLAN SELECT * FROM metric_point WHERE run_id = 1 AND key_id = 2")" &&
	test_status 2 "$AMDAHL" --store "$S" sql "DELETE FROM metric_point"
'
for v in 5 4; do
	O=$TMP/old$v.db
	test_expect_success SQLITE3,NUMPY,SQLITE_STORE "setup: the same store in the layout of schema version $v" '
		cp "$S" "'"$O"'" && old_layout "'"$O"'" '"$v"' &&
		test_eq "$(wc -l <"$TMP/store.txt")" "$(sqlite3 "'"$O"'" "SELECT count(*) FROM metric_point")"
	'
	test_expect_success SQLITE3,NUMPY,SQLITE_STORE "a schema $v store: read-only commands ask for an ingest, the next ingest converts it (0 added)" '
		test_status 2 "$AMDAHL" --store "'"$O"'" stats --json &&
		test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
		test_status 0 "$AMDAHL" --store "'"$O"'" ingest "$cpu" &&
		test_contains "0 added, 0 replaced" "$OUT"
	'
	test_expect_success SQLITE3,NUMPY,SQLITE_STORE "the converted schema $v store: same points, same series, stats --json identical" '
		test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "'"$O"'" "SELECT max(version) FROM schema_version")" &&
		test_eq "$(points_digest "$S")" "$(points_digest "'"$O"'")" &&
		test_eq "$(q "$S" "SELECT source_id, run_id, key_id, n FROM metric_series ORDER BY 1,2,3")" \
			"$(q "'"$O"'" "SELECT source_id, run_id, key_id, n FROM metric_series ORDER BY 1,2,3")" &&
		test_status 0 "$AMDAHL" --store "$S" stats --json && want=$OUT &&
		test_status 0 "$AMDAHL" --store "'"$O"'" stats --json &&
		test_eq "$want" "$OUT"
	'
done
test_expect_success SQLITE3,NUMPY 'setup: one metric file gets its last step logged twice more (same step, same ms)' '
	mf=$(find "$cpu" -path "*/metrics/*" -type f | sort | head -1) &&
	rdir=${mf%/metrics/*} && rid=$(basename "$rdir") && key=${mf#"$rdir/metrics/"} &&
	{ [ "$AMDAHL_TEST_BACKEND" = clickhouse ] || others=$(others_rows "$S" "$rid"); } &&
	last=$(awk NF "$mf" | tail -1) &&
	set -- $last &&
	printf "%s %s %s\n%s %s %s\n" "$1" 1.5 "$3" "$1" 2.5 "$3" >>"$mf" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu" &&
	test_contains "1 replaced" "$OUT"
'
test_expect_success SQLITE3,NUMPY,SQLITE_STORE 'repeated steps: every line is a point; only that run directory'"'"'s series were rewritten' '
	$ORACLE files "$cpu" >"$TMP/files2.txt" &&
	test_eq "$(sha256sum <"$TMP/files2.txt")" "$($ORACLE store "$S" | sha256sum)" &&
	test_eq "$(awk NF "$mf" | wc -l)" "$(grep -c "^$rid	$key	" "$TMP/files2.txt")" &&
	test_eq "$(find "$rdir/metrics" -type f | wc -l)" "$(q "$S" "SELECT count(*) FROM metric_series m JOIN run r ON r.id = m.run_id WHERE r.ext_id = '"'$rid'"'")" &&
	test_eq "$others" "$(others_rows "$S" "$rid")"
'
# SQLite's SQL (seq, two JOINs), which `amdahl sql` on ClickHouse 18.16 does not take
test_expect_success SQLITE3,NUMPY,SQLITE_STORE 'amd_run_metric keeps repeated steps apart, in the order they were logged' '
	test_status 0 "$AMDAHL" --store "$S" sql "SELECT group_concat(value, '"' '"') AS v FROM (SELECT value FROM metric_point m JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id WHERE r.ext_id = '"'$rid'"' AND d.s = '"'$key'"' ORDER BY step DESC, seq DESC LIMIT 2)" &&
	test_eq "2.5 1.5" "$(echo "$OUT" | tail -1)"
'
test_expect_success SQLITE3,NUMPY,SQLITE_STORE 'a damaged blob: one line naming the store and the row, exit 2, the store unchanged' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE metric_series SET points = substr(points, 1, 23) WHERE rowid = (SELECT min(rowid) FROM metric_series)" &&
	d=$(store_digest "$TMP/bad.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT sum(value) AS s FROM metric_point" &&
	test_contains "bad.db: metric_series run" "$ERR" && test_eq 1 "$(printf "%s\n" "$ERR" | grep -o "bad.db" | wc -l)" &&
	test_contains "packed points of 23 bytes" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" stats --json &&
	test_contains "packed points of 23 bytes" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad.db")"
'
test_done
