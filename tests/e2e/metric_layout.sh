#!/bin/bash
# metric_layout.sh — metric points as one clustered B-tree (issue 19,
# round two): metric_point is WITHOUT ROWID keyed by (run, key, step,
# source, seq) with no secondary index; metric_series lists each
# source's (run, key) pairs; a store of the old layout (a rowid table and
# two indexes) is converted at the next ingest with its points and `stats` unchanged;
# repeated steps are all kept; a changed file replaces only its points.
test_description='metric points: clustered layout, migration of old stores, repeated steps'
. "$(dirname "$0")/../test-lib.sh"

cpu=$TMP/cpu
S=$TMP/new.db
O=$TMP/old.db
rdir="" mf="" rid="" key="" want=""
# every point as text, in one order (the multiset of points)
ALL_POINTS="SELECT run_id, key_id, step, ts_ms, quote(value), source_id FROM metric_point ORDER BY 1,2,3,4,5,6"
SERIES_FROM_POINTS="SELECT DISTINCT source_id, run_id, key_id FROM metric_point ORDER BY 1,2,3"
SERIES="SELECT source_id, run_id, key_id FROM metric_series ORDER BY 1,2,3"
# of run RUN (ext_id) and metric KEY in STORE: count, sum; points of other runs
key_count() { q "$1" "SELECT count(*) FROM metric_point m JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id WHERE r.ext_id = '$2' AND d.s = '$3'"; }
key_sum() { q "$1" "SELECT printf('%.6f', sum(value)) FROM metric_point m JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id WHERE r.ext_id = '$2' AND d.s = '$3'"; }
others_count() { q "$1" "SELECT count(*) FROM metric_point m JOIN run r ON r.id = m.run_id WHERE r.ext_id <> '$2'"; }
points_digest() { q "$1" "$ALL_POINTS" | sha256sum | cut -c1-64; }

# old_layout STORE: rewrites STORE's points in the layout before this
# change (schema version 4: rowid table, metric_point_run and
# metric_point_source indexes, no metric_series)
old_layout() {
	sqlite3 "$1" "BEGIN;
	CREATE TABLE mp_old(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,
	  step INTEGER NOT NULL, ts_ms INTEGER, value REAL, source_id INTEGER NOT NULL);
	INSERT INTO mp_old SELECT run_id, key_id, step, ts_ms, value, source_id FROM metric_point ORDER BY source_id, seq;
	DROP TABLE metric_point; DROP TABLE metric_series;
	ALTER TABLE mp_old RENAME TO metric_point;
	CREATE INDEX metric_point_run ON metric_point(run_id, key_id, step);
	CREATE INDEX metric_point_source ON metric_point(source_id);
	DELETE FROM schema_version WHERE version > 4;
	COMMIT;"
}

test_expect_success SQLITE3 'setup: the CPU sweep ingests (exit 0)' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$cpu" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu"
'
test_expect_success SQLITE3 'metric_point is WITHOUT ROWID with no index besides its key' '
	test_eq 0 "$(q "$S" "SELECT count(*) FROM sqlite_master WHERE type = '"'index'"' AND tbl_name = '"'metric_point'"'")" &&
	test_contains "WITHOUT ROWID" "$(q "$S" "SELECT sql FROM sqlite_master WHERE name = '"'metric_point'"'")" &&
	test_eq "run_id key_id step source_id seq" "$(q "$S" "SELECT name FROM pragma_index_info((SELECT name FROM pragma_index_list('"'metric_point'"') WHERE origin = '"'pk'"'))" | tr "\n" " " | sed "s/ $//")"
'
test_expect_success SQLITE3 'every point is in the store (count of the metric files)' '
	test_eq "$(find "$cpu" -path "*/metrics/*" -type f -exec cat {} + | awk NF | wc -l)" \
		"$(q "$S" "SELECT count(*) FROM metric_point")"
'
test_expect_success SQLITE3 'metric_series is exactly the distinct (source, run, key) of the points' '
	test_eq "$(q "$S" "$SERIES_FROM_POINTS")" "$(q "$S" "$SERIES")" &&
	test_eq "$(find "$cpu" -path "*/metrics/*" -type f | wc -l)" "$(q "$S" "SELECT count(*) FROM metric_series")"
'
test_expect_success SQLITE3 'setup: the same store in the old layout (schema version 4)' '
	cp "$S" "$O" &&
	old_layout "$O" &&
	test_eq 2 "$(q "$O" "SELECT count(*) FROM sqlite_master WHERE type = '"'index'"' AND tbl_name = '"'metric_point'"'")"
'
test_expect_success SQLITE3 'an old store converts at the next ingest (nothing new in it: 0 added)' '
	test_status 0 "$AMDAHL" --store "$O" ingest "$cpu" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success SQLITE3 'the converted store: stats --json identical' '
	test_status 0 "$AMDAHL" --store "$S" stats --json && want=$OUT &&
	test_status 0 "$AMDAHL" --store "$O" stats --json &&
	test_eq "$want" "$OUT"
'
test_expect_success SQLITE3 'the converted store: new layout, same points, series rebuilt' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(q "$O" "SELECT count(*) FROM sqlite_master WHERE type = '"'index'"' AND tbl_name = '"'metric_point'"'")" &&
	test_eq "$(points_digest "$S")" "$(points_digest "$O")" &&
	test_eq "$(q "$S" "$SERIES")" "$(q "$O" "$SERIES")"
'
test_expect_success SQLITE3 'setup: one metric file gets its last step logged twice more' '
	mf=$(find "$cpu" -path "*/metrics/*" -type f | sort | head -1) &&
	rdir=${mf%/metrics/*} && rid=$(basename "$rdir") &&
	last=$(awk NF "$mf" | tail -1) &&
	set -- $last &&
	printf "%s %s %s\n%s %s %s\n" "$1" 1.5 "$3" "$1" 2.5 "$3" >>"$mf" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu" &&
	test_contains "1 replaced" "$OUT"
'
test_expect_success SQLITE3 'repeated steps: every line of the file is a point; other runs unchanged' '
	key=${mf#"$rdir/metrics/"} &&
	test_eq "$(awk NF "$mf" | wc -l)" "$(key_count "$S" "$rid" "$key")" &&
	test_eq "$(awk "NF{s+=\$2} END{printf \"%.6f\", s}" "$mf")" "$(key_sum "$S" "$rid" "$key")" &&
	test_eq "$(others_count "$O" "$rid")" "$(others_count "$S" "$rid")" &&
	test_eq "$(q "$S" "$SERIES_FROM_POINTS")" "$(q "$S" "$SERIES")"
'
test_done
