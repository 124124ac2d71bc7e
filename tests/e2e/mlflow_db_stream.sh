# mlflow_db_stream.sh — mlflow.db is read on a thread of its own into a
# bounded queue (48 chunks of 8,192 records) that the store drains
# (amd_format.queued: lib/ingest/queued_sink.c, rec_queue.c). A database with more
# points than the queue holds: every point arrives (count and sums equal
# sqlite3's over MLflow's own table); re-ingesting it unchanged stops a
# reader waiting for room and leaves the store as it was; a bad value in
# the last run, found after the other runs' points went to the store,
# fails with one line and the store unchanged; with AMDAHL_OVERLAP=0
# (parse in one call) the store holds the same points.
test_description='mlflow.db read on its own thread: all points, unchanged re-ingest, late bad value'
. "$(dirname "$0")/../test-lib.sh"

MLRUNS="$DATA/cpu-strong-scaling/mlruns"
F="$TMP/forms"
first="" last=""
N=420000
# the first and last run in the order the reader reads them
RUN_ORDER="SELECT run_uuid FROM runs WHERE lifecycle_stage<>'deleted' ORDER BY start_time, run_uuid"
# N points of key 'bulk' for run $1, in logged (rowid) order
bulk_sql() {
	echo "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM i WHERE n<$N-1)
	INSERT INTO metrics(key, value, timestamp, run_uuid, step, is_nan)
	SELECT 'bulk', n*0.25, 1700000000000+n, '$1', n, 0 FROM i"
}
DB_SUMS="SELECT count(*), sum(step), sum(ts_ms), sum(value) FROM (SELECT step, timestamp AS ts_ms, value FROM metrics WHERE key='bulk')"
ST_SUMS="SELECT count(*), sum(m.step), sum(m.ts_ms), sum(m.value) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='bulk'"
ALL="SELECT r.ext_id, d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3"
BULK_OF="SELECT r.ext_id FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE d.s='bulk' GROUP BY 1"

test_expect_success SQLITE3,PYTHON "setup: mlflow.db with $N more points for its first run" '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$MLRUNS" "$F" >/dev/null &&
	cp "$F/mlflow.db" "$TMP/big.db" &&
	first=$(sqlite3 "$TMP/big.db" "$RUN_ORDER LIMIT 1") &&
	last=$(sqlite3 "$TMP/big.db" "$RUN_ORDER" | tail -1) &&
	test -n "$first" && test "$first" != "$last" &&
	sqlite3 "$TMP/big.db" "$(bulk_sql "$first")" &&
	test_eq $N "$(sqlite3 "$TMP/big.db" "SELECT count(*) FROM metrics WHERE key='\''bulk'\''")"
'
test_expect_success SQLITE3 'every point of a database larger than the queue reaches the store' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest "$TMP/big.db" &&
	test_eq "$(sqlite3 "$TMP/big.db" "$DB_SUMS")" "$(q "$TMP/s.db" "$ST_SUMS")" &&
	test_eq "$first" "$(q "$TMP/s.db" "$BULK_OF")" &&
	test_eq "$(sqlite3 "$TMP/big.db" "SELECT count(*) FROM metrics m JOIN runs r USING (run_uuid) WHERE r.lifecycle_stage<>'\''deleted'\''")" \
		"$(q "$TMP/s.db" "SELECT count(*) FROM metric_point")"
'
test_expect_success SQLITE3 're-ingesting it unchanged: the waiting reader is stopped, the store as it was' '
	before=$(store_digest "$TMP/s.db") &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest "$TMP/big.db" &&
	test_contains "1 unchanged" "$OUT$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/s.db")"
'
test_expect_success SQLITE3 'a text value in the last run, after the first run'\''s points were written: one line, store unchanged' '
	cp "$TMP/big.db" "$TMP/late.db" &&
	sqlite3 "$TMP/late.db" "UPDATE metrics SET value='\''fast'\'' WHERE rowid=(SELECT max(rowid) FROM metrics WHERE run_uuid='\''$last'\'')" &&
	test_bad_ingest "$TMP/s.db" "$TMP/late.db" "late.db: metric" &&
	test_contains "of run $last: value '\''fast'\'' is not a number" "$ERR"
'
test_expect_success SQLITE3 'with AMDAHL_OVERLAP=0 (one call to parse) the store holds the same points' '
	AMDAHL_OVERLAP=0 test_status 0 "$AMDAHL" --store "$TMP/one.db" ingest "$TMP/big.db" &&
	test_eq "$(q "$TMP/s.db" "$ALL" | sha256sum)" "$(q "$TMP/one.db" "$ALL" | sha256sum)"
'
# A long run is read on two connections (lib/ingest/mlflow/
# mlflow_sqlite_points.c: rows from its middle rowid on a thread of its
# own, handed over after the first half). 'dup', in the small database:
# 200,000 rows alternating between the first and the last run (rowids
# interleave; each run spans 200,000 rowids, so its series straddles
# the middle), steps repeating (n % 997), values unique: each series
# must arrive in MLflow's logged (rowid) order, which the store keeps
# among points of equal step (SQLite lists a series as it arrived,
# ClickHouse by step: compared stably sorted by step).
DUP_N=200000
dup_sql() {
	echo "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM i WHERE n<$DUP_N-1)
	INSERT INTO metrics(key, value, timestamp, run_uuid, step, is_nan)
	SELECT 'dup', n, 1700000000000+n, CASE n % 2 WHEN 0 THEN '$first' ELSE '$last' END, n % 997, 0 FROM i"
}
# run $1's 'dup' points in the store's order, and in MLflow's, by step
dup_store() {
	q "$2" "SELECT m.step, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE d.s='dup' AND r.ext_id='$1'" |
		sort -s -t'|' -k1,1n
}
dup_mlflow() { sqlite3 "$2" "SELECT step, value FROM metrics WHERE key='dup' AND run_uuid='$1' ORDER BY step, rowid"; }
test_expect_success SQLITE3 'a long run read in two halves: every series in logged order, steps repeating' '
	cp "$F/mlflow.db" "$TMP/dup.db" &&
	sqlite3 "$TMP/dup.db" "$(dup_sql)" &&
	test_status 0 "$AMDAHL" --store "$TMP/dup_s.db" ingest "$TMP/dup.db" &&
	test_eq "$(dup_mlflow "$first" "$TMP/dup.db" | sha256sum)" "$(dup_store "$first" "$TMP/dup_s.db" | sha256sum)" &&
	test_eq "$(dup_mlflow "$last" "$TMP/dup.db" | sha256sum)" "$(dup_store "$last" "$TMP/dup_s.db" | sha256sum)" &&
	test_eq $((DUP_N / 2)) "$(dup_store "$first" "$TMP/dup_s.db" | wc -l)" &&
	test_eq "$(sqlite3 "$TMP/dup.db" "$DB_SUMS")" "$(q "$TMP/dup_s.db" "$ST_SUMS")"
'
test_expect_success SQLITE3 'the same database in WAL mode (read in one piece): the same points' '
	cp "$TMP/dup.db" "$TMP/wal.db" &&
	test_eq wal "$(sqlite3 "$TMP/wal.db" "PRAGMA journal_mode=WAL")" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal_s.db" ingest "$TMP/wal.db" &&
	test_eq "$(q "$TMP/dup_s.db" "$ALL" | sha256sum)" "$(q "$TMP/wal_s.db" "$ALL" | sha256sum)" &&
	test_eq "$(dup_store "$first" "$TMP/dup_s.db" | sha256sum)" "$(dup_store "$first" "$TMP/wal_s.db" | sha256sum)"
'
# a text value at the first run's first and at its last rowid: in the
# half read here (the other thread is stopped) and in the other half
for end in min max; do
	test_expect_success SQLITE3 "a text value at the long run's $end rowid: one line, store unchanged" '
		cp "$TMP/big.db" "$TMP/bad_$end.db" &&
		sqlite3 "$TMP/bad_$end.db" "UPDATE metrics SET value='\''slow'\'' WHERE rowid=(SELECT $end(rowid) FROM metrics WHERE run_uuid='\''$first'\'')" &&
		test_bad_ingest "$TMP/s.db" "$TMP/bad_$end.db" "bad_$end.db: metric" &&
		test_contains "of run $first: value '\''slow'\'' is not a number" "$ERR"
	'
done
# rowids at both ends of int64 (SQLite allows any): the run's span does
# not fit int64 — halves cut without overflow (UBSan), every point read
test_expect_success SQLITE3 'a run with rowids at both ends of int64: every point' '
	cp "$F/mlflow.db" "$TMP/edge.db" &&
	sqlite3 "$TMP/edge.db" "INSERT INTO metrics(rowid, key, value, timestamp, run_uuid, step, is_nan)
		VALUES (-9223372036854775808, '\''edge'\'', 1.5, 1700000000000, '\''$first'\'', 0, 0),
		       (9223372036854775807, '\''edge'\'', 2.5, 1700000000001, '\''$first'\'', 1, 0)" &&
	test_status 0 "$AMDAHL" --store "$TMP/edge_s.db" ingest "$TMP/edge.db" &&
	test_eq "0|1.5
1|2.5" "$(q "$TMP/edge_s.db" "SELECT m.step, m.value FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='\''edge'\'' ORDER BY 1")" &&
	test_eq "$(sqlite3 "$TMP/edge.db" "SELECT count(*) FROM metrics m JOIN runs r USING (run_uuid) WHERE r.lifecycle_stage<>'\''deleted'\''")" \
		"$(q "$TMP/edge_s.db" "SELECT count(*) FROM metric_point")"
'
# a column named rowid hides the rowid (here NULL in two rows of three):
# halves cut by its values would lose rows, so such a table is read whole
test_expect_success SQLITE3 'metrics with a column named rowid: every point' '
	cp "$TMP/dup.db" "$TMP/rowid.db" &&
	sqlite3 "$TMP/rowid.db" "ALTER TABLE metrics ADD COLUMN rowid INTEGER;
		UPDATE metrics SET rowid = -_rowid_ WHERE _rowid_ % 3 = 0" &&
	test_status 0 "$AMDAHL" --store "$TMP/rowid_s.db" ingest "$TMP/rowid.db" &&
	test_eq "$(q "$TMP/dup_s.db" "$ALL" | sha256sum)" "$(q "$TMP/rowid_s.db" "$ALL" | sha256sum)" &&
	test_eq "$(dup_store "$first" "$TMP/dup_s.db" | sha256sum)" "$(dup_store "$first" "$TMP/rowid_s.db" | sha256sum)"
'
test_done
