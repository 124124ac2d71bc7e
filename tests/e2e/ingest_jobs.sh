#!/bin/bash
# ingest_jobs.sh — `ingest -j N` on a small generated sweep (3 runs × 8
# rank traces, bench/gen_sweep.py): workers of one process take turns at
# the store's write lock in-process (lib/store/writer/write_gate.h) and read each
# unit before taking it (lib/ingest/engine_overlap.h). -j 2 and -j 4 store
# exactly what -j 1 stores; a bad trace among them fails alone and leaves
# nothing of itself; the round-eight migration indexes source by sha256
# and trace by source (and op_average, whose rows schema 16 packs:
# op_average_pack is indexed by source), and an older store gets it at its
# next ingest; round ten's region index by (run, name) replaces
# region_name and region_run in an older store. Workers write batches of
# units in one transaction (lib/ingest/engine.c): when a batch's commit
# fails, each of its units is named as failed and none of it is stored.
# The last connection to close is a writer, so the WAL is checkpointed
# into the store file at exit.
test_description='ingest -j N: the same store as -j 1, failures alone, the source- and region-index migrations'
. "$(dirname "$0")/../test-lib.sh"

sw=$TMP/sw
# facts STORE: every run's sources, traces and region totals, by name
# (ids differ with the order units are written in)
facts() {
	q "$1" "SELECT r.ext_id, (SELECT count(*) FROM trace t WHERE t.run_id = r.id),
		(SELECT count(*) || ' ' || sum(g.self_ns) || ' ' || sum(g.calls) FROM region g WHERE g.run_id = r.id),
		(SELECT group_concat(k.s || '=' || p.value, ',') FROM (SELECT * FROM param ORDER BY key_id) p
		 JOIN dict k ON k.id = p.key_id WHERE p.run_id = r.id)
		FROM run r ORDER BY r.ext_id"
}

test_expect_success PYTHON 'setup: a sweep of 3 runs × 8 rank traces' '
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_sweep.py "$sw" 3 8 >/dev/null) &&
	test_eq 24 "$(find "$sw" -name "*.pt.trace.json.gz" | wc -l)"
'

test_expect_success PYTHON,SQLITE3 '-j 1, -j 2 and -j 4 store the same runs, traces, regions and params' '
	for j in 1 2 4; do
		"$AMDAHL" --store "$TMP/j$j.db" ingest -q -j $j "$sw/mlruns" || return 1
	done &&
	test_eq 27 "$(q "$TMP/j2.db" "SELECT count(*) FROM source")" &&  # 3 run directories, 24 traces
	test_eq 24 "$(q "$TMP/j2.db" "SELECT count(*) FROM trace WHERE run_id IS NOT NULL")" &&
	one=$(facts "$TMP/j1.db") &&
	test_eq 3 "$(printf "%s\n" "$one" | grep -c "|8|")" &&  # every run holds its 8 traces
	test_eq "$one" "$(facts "$TMP/j2.db")" &&
	test_eq "$one" "$(facts "$TMP/j4.db")" &&
	"$AMDAHL" --store "$TMP/j1.db" stats --json >"$TMP/s1.json" &&
	"$AMDAHL" --store "$TMP/j4.db" stats --json >"$TMP/s4.json" &&
	test_eq "$(cat "$TMP/s1.json")" "$(cat "$TMP/s4.json")"
'

test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the ingest leaves its pages in the store file, not the WAL: a copy of the .db alone holds every run, at -j 1 and -j 2' '
	for j in 1 2; do
		"$AMDAHL" --store "$TMP/wal$j.db" ingest -q -j $j "$sw/mlruns" &&
		test_eq 0 "$(stat -c %s "$TMP/wal$j.db-wal" 2>/dev/null || echo 0)" &&
		cp "$TMP/wal$j.db" "$TMP/alone$j.db" &&
		test_eq "$(facts "$TMP/j1.db")" "$(facts "$TMP/alone$j.db")" || return 1
	done
'

# wal_peak DB ARGS...: ingests ARGS into the new store DB while sampling
# the size of DB-wal every 20 ms; prints the largest (the log only grows
# until the ingest's end removes it: a restart writes it again from its
# beginning)
wal_peak() {
	db=$1; shift
	"$AMDAHL" --store "$db" ingest -q "$@" & pid=$!
	peak=0
	while kill -0 $pid 2>/dev/null; do
		size=$(stat -c %s "$db-wal" 2>/dev/null || echo 0)
		[ "$size" -gt "$peak" ] && peak=$size
		sleep 0.02
	done
	wait $pid && echo $peak
}

# The log is checkpointed after the turns past 4,000 frames (16 MB; see
# lib/store/writer/write_gate.c). The checkpoint connection had never
# read the store, so SQLite took it for one not in WAL mode and each
# checkpoint did nothing: the store file kept its first 216 KB and the
# log took every page (main: 61.6 MB at -j 1, 49.1 MB at -j 2 on this
# 240-run sweep of 71 MB of metric files; 1.57 GB on a 1,000 x 64 trace
# sweep). Now 16.6 MB at -j 1 and 17-26 MB at -j 2.
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the write-ahead log stays under 36 MB while -j 1 and -j 2 ingest 240 runs of 8,000 metric points (main: 62 and 49 MB)' '
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_sweep.py "$TMP/long" 240 0 4 2000 >/dev/null) &&
	for j in 1 2; do
		peak=$(wal_peak "$TMP/long$j.db" -j $j "$TMP/long/mlruns") &&
		test_true "-j $j: log peak $peak < 36 MB" test "$peak" -lt 36000000 &&
		test_eq 240 "$(q "$TMP/long$j.db" "SELECT count(*) FROM run")" &&
		test_eq 0 "$(stat -c %s "$TMP/long$j.db-wal" 2>/dev/null || echo 0)" &&
		rm -f "$TMP/long$j.db" || return 1
	done &&
	rm -rf "$TMP/long"
'

test_expect_success PYTHON,SQLITE3 'a truncated trace among -j 2 workers fails alone and leaves nothing of itself' '
	bad=$(find "$sw" -name "rank3.*.pt.trace.json.gz" | sort | head -1) &&
	head -c 20000 "$bad" >"$TMP/cut" && cp "$TMP/cut" "$bad" &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" ingest -q -j 2 "$sw/mlruns" &&
	test_contains "$bad" "$ERR" &&
	test_eq 26 "$(q "$TMP/bad.db" "SELECT count(*) FROM source")" &&
	test_eq 0 "$(q "$TMP/bad.db" "SELECT count(*) FROM source WHERE path = '"'"'$bad'"'"'")" &&
	test_eq 23 "$(q "$TMP/bad.db" "SELECT count(DISTINCT source_id) FROM region")" &&
	test_eq ok "$(q "$TMP/bad.db" "PRAGMA integrity_check")"
'

# units: every unit of the sweep (run directories and their traces)
units() {
	find "$sw/mlruns" -mindepth 2 -maxdepth 2 -type d -name "[0-9a-f]*" | sort
	find "$sw/mlruns" -name "*.pt.trace.json.gz" | sort
}

# 300 KB: the whole sweep's store is ~390 KB, so the limit is always met
# mid-ingest (500 KB was met only through the WAL of the 13 migrations,
# which a new store no longer replays: store_create.c). The store may
# also be too full to take the WAL back at the end: that warning (the
# pages stay in the -wal file, which sqlite3 reads) is not a unit's line.
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'a full disk mid-ingest: every unit is stored whole, named as failed or counted as not read, never two' '
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_sweep.py "$TMP/full" 3 8 >/dev/null) &&
	sw=$TMP/full && units | sort >"$TMP/units" &&
	(trap "" XFSZ; ulimit -f 300; "$AMDAHL" --store "$TMP/full.db" ingest -q -j 2 "$sw/mlruns" 2>"$TMP/full.err"; echo $? >"$TMP/full.rc") &&
	test_eq 2 "$(cat "$TMP/full.rc")" &&
	test_eq ok "$(q "$TMP/full.db" "PRAGMA integrity_check")" &&
	q "$TMP/full.db" "SELECT path FROM source" | sort >"$TMP/stored" &&
	grep -v "^amdahl ingest: warning: $TMP/full.db: cannot copy the write-ahead log" "$TMP/full.err" >"$TMP/full.lines" &&
	sed -n "s|^amdahl ingest: \(.*\): $TMP/full.db: .*|\1|p" "$TMP/full.lines" | sort >"$TMP/failed" &&
	unread=$(sed -n "s|^amdahl ingest: stopped at the store.s failure above: \([0-9]*\) of .*|\1|p" "$TMP/full.lines") &&
	test_eq "$(wc -l <"$TMP/full.lines")" "$(($(wc -l <"$TMP/failed") + 1))" &&
	test "$(wc -l <"$TMP/stored")" -gt 0 && test "$(wc -l <"$TMP/failed")" -gt 0 &&
	test_eq "" "$(comm -12 "$TMP/stored" "$TMP/failed")" &&
	test_eq "$(wc -l <"$TMP/units")" "$(($(sort -u "$TMP/stored" "$TMP/failed" | wc -l) + unread))" &&
	test_eq "" "$(sort "$TMP/stored" "$TMP/failed" | comm -13 "$TMP/units" -)" &&
	test_eq 0 "$(q "$TMP/full.db" "SELECT count(*) FROM source s WHERE s.kind = '"'"'torch-trace'"'"'
		AND (SELECT count(*) FROM trace t WHERE t.source_id = s.id) <> 1")" &&
	test_eq 0 "$(q "$TMP/full.db" "SELECT count(*) FROM region WHERE source_id NOT IN (SELECT id FROM source)")"
'

new_indexes="SELECT name FROM sqlite_master WHERE name IN ('source_sha256', 'trace_source',
	'op_average_source', 'op_average_pack_source') ORDER BY name"
# lib/store/writer/writer.c's amd_store_source_state
source_state="SELECT path, sha256 FROM source WHERE path = 'a' OR sha256 = 'b' ORDER BY path = 'a' DESC LIMIT 1"
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'a store from before the source-index migration gets it at its next ingest' '
	cp "$TMP/j1.db" "$TMP/old.db" &&
	last=$(q "$TMP/old.db" "SELECT max(version) FROM schema_version") &&
	test_eq "op_average_pack_source source_sha256 trace_source" "$(q "$TMP/old.db" "$new_indexes" | tr "\n" " " | sed "s/ $//")" &&
	q "$TMP/old.db" "DROP INDEX source_sha256; DROP INDEX trace_source;
		DELETE FROM schema_version WHERE version >= 7" &&
	test_contains "SCAN t" "$(q "$TMP/old.db" "EXPLAIN QUERY PLAN SELECT id FROM trace t WHERE source_id = 5")" &&
	"$AMDAHL" --store "$TMP/old.db" ingest -q "$DATA/cpu-strong-scaling" &&
	test_eq "$last" "$(q "$TMP/old.db" "SELECT max(version) FROM schema_version")" &&
	test_eq "op_average_pack_source source_sha256 trace_source" "$(q "$TMP/old.db" "$new_indexes" | tr "\n" " " | sed "s/ $//")" &&
	test_contains "INDEX trace_source (source_id=?)" "$(q "$TMP/old.db" "EXPLAIN QUERY PLAN SELECT id FROM trace t WHERE source_id = 5")" &&
	test_contains "INDEX source_sha256 (sha256=?)" "$(q "$TMP/old.db" "EXPLAIN QUERY PLAN $source_state")"
'

region_indexes="SELECT m.name || ':' || group_concat(c.name, ',') FROM sqlite_master m,
	pragma_index_info(m.name) c WHERE m.type = 'index' AND m.tbl_name = 'region' GROUP BY m.name ORDER BY m.name"
# lib/store/regions/regions.c's across_sql: one region name across a sweep, by run
across="SELECT count(*) FROM region g JOIN run ru ON ru.id = g.run_id WHERE ru.sweep_id = 1 AND g.name_id = 7"
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'a store with region_name and region_run(run_id) (its regions rows again) migrates to the packed regions (schema 15), the same regions' '
	cp "$TMP/j1.db" "$TMP/old9.db" &&
	last=$(q "$TMP/old9.db" "SELECT max(version) FROM schema_version") &&
	region_rows "$TMP/old9.db" &&
	test_eq "region_run:run_id,name_id region_source:source_id,key" "$(q "$TMP/old9.db" "$region_indexes" | tr "\n" " " | sed "s/ $//")" &&
	q "$TMP/old9.db" "DROP INDEX region_run; CREATE INDEX region_run ON region(run_id);
		CREATE INDEX region_name ON region(name_id); DELETE FROM schema_version WHERE version >= 9" &&
	test_contains "INDEX region_name" "$(q "$TMP/old9.db" "EXPLAIN QUERY PLAN $across")" &&
	before=$(facts "$TMP/old9.db") &&
	"$AMDAHL" --store "$TMP/old9.db" ingest -q "$DATA/cpu-strong-scaling" 2>/dev/null &&
	test_eq "$last" "$(q "$TMP/old9.db" "SELECT max(version) FROM schema_version")" &&
	test_eq "" "$(q "$TMP/old9.db" "$region_indexes")" &&
	test_eq 0 "$(q "$TMP/old9.db" "SELECT count(*) FROM sqlite_master WHERE name = '"'region'"'")" &&
	test_eq "$before" "$(facts "$TMP/old9.db" | grep -F -x -f <(echo "$before"))"
'

test_done
