# mlflow_db_stream.sh — mlflow.db is read on a thread of its own into a
# bounded queue (48 chunks of 8,192 records) that the store drains
# (every format's parse: lib/ingest/queued_sink.c, rec_queue.c). A database with more
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
	test_contains "of run $last, step 2: value is text '\''fast'\'', not a number" "$ERR"
'
test_expect_success SQLITE3 'with AMDAHL_OVERLAP=0 (one call to parse) the store holds the same points' '
	AMDAHL_OVERLAP=0 test_status 0 "$AMDAHL" --store "$TMP/one.db" ingest "$TMP/big.db" &&
	test_eq "$(q "$TMP/s.db" "$ALL" | sha256sum)" "$(q "$TMP/one.db" "$ALL" | sha256sum)"
'
test_done
