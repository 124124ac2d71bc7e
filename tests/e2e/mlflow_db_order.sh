# mlflow_db_order.sh — mlflow.db's points reach the store in the order
# MLflow logged them (rowid order, the order of its index on run_uuid)
# whichever way the reader finds a run's rows (lib/ingest/mlflow/
# mlflow_sqlite.c): a table scan between the run's first and last rowid
# while most rows there are the run's, its index for the rest. Three runs
# whose rows are contiguous, then interleaved, then contiguous again (the
# scan gives up on the interleaved part), steps out of order and some
# NaN: each series' points in the store's seq order are sqlite3's over
# MLflow's table in rowid order; without the run index, or with an index
# on (run_uuid, key) instead, the store holds the same points. The order
# cases read seq from the SQLite store (SQLITE_STORE): a ClickHouse
# store's pulled copy numbers seq by row order, which does not keep the
# logged order (83f5b9c fails those cases there the same way).
test_description='mlflow.db: points in logged order through table scan and run index'
. "$(dirname "$0")/../test-lib.sh"

MLRUNS="$DATA/cpu-strong-scaling/mlruns"
F="$TMP/forms"
RUN_ORDER="SELECT run_uuid FROM runs WHERE lifecycle_stage<>'deleted' ORDER BY start_time, run_uuid"
a="" b="" c=""
# 100,000 points of keys il_a/il_b: rows 0-29,999 and 70,000- of run a;
# between them every other row is a's, the rest b's and c's
interleave_sql() {
	echo "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n+1 FROM i WHERE n<99999)
	INSERT INTO metrics(key, value, timestamp, run_uuid, step, is_nan)
	SELECT CASE WHEN n%3=0 THEN 'il_a' ELSE 'il_b' END, (n*7919)%100003*0.5,
	 1700000000000+(n*31)%1000,
	 CASE WHEN n<30000 OR n>=70000 OR n%2=0 THEN '$a' WHEN n%4=1 THEN '$b' ELSE '$c' END,
	 (n*7919)%100003, n%1000=7 FROM i"
}
# the points of run $1, key $2: MLflow's in rowid order, the store's in seq order
db_points() {
	sqlite3 "$3" "SELECT step, timestamp, CASE WHEN is_nan THEN NULL ELSE value END
		FROM metrics WHERE run_uuid='$1' AND key='$2' ORDER BY rowid"
}
st_points() {
	q "$3" "SELECT m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id
		JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$1' AND d.s='$2' ORDER BY m.seq"
}
ALL="SELECT r.ext_id, d.s, m.seq, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3"

test_expect_success SQLITE3,PYTHON 'setup: mlflow.db with three runs partly interleaved' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$MLRUNS" "$F" >/dev/null &&
	cp "$F/mlflow.db" "$TMP/il.db" &&
	a=$(sqlite3 "$TMP/il.db" "$RUN_ORDER LIMIT 1") &&
	b=$(sqlite3 "$TMP/il.db" "$RUN_ORDER LIMIT 1 OFFSET 1") &&
	c=$(sqlite3 "$TMP/il.db" "$RUN_ORDER LIMIT 1 OFFSET 2") &&
	test -n "$c" &&
	sqlite3 "$TMP/il.db" "$(interleave_sql)" &&
	test_eq 80000 "$(sqlite3 "$TMP/il.db" "SELECT count(*) FROM metrics WHERE run_uuid='\''$a'\'' AND key LIKE '\''il_%'\''")"
'
test_expect_success SQLITE3,SQLITE_STORE 'each series in the store in logged order' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest "$TMP/il.db" &&
	for r in "$a" "$b" "$c"; do
		for k in il_a il_b; do
			test_eq "$(db_points "$r" "$k" "$TMP/il.db" | sha256sum)" \
				"$(st_points "$r" "$k" "$TMP/s.db" | sha256sum)" || return 1
		done
	done &&
	test_eq 100000 "$(q "$TMP/s.db" "SELECT count(*) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s LIKE '\''il_%'\''")" &&
	test_eq 100 "$(q "$TMP/s.db" "SELECT count(*) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s LIKE '\''il_%'\'' AND m.value IS NULL")"
'
test_expect_success SQLITE3,SQLITE_STORE 'without the run index, the same points in the same order' '
	cp "$TMP/il.db" "$TMP/noidx.db" &&
	sqlite3 "$TMP/noidx.db" "DROP INDEX index_metrics_run_uuid" &&
	test_status 0 "$AMDAHL" --store "$TMP/noidx-s.db" ingest "$TMP/noidx.db" &&
	test_eq "$(q "$TMP/s.db" "$ALL" | sha256sum)" "$(q "$TMP/noidx-s.db" "$ALL" | sha256sum)"
'
test_expect_success SQLITE3,SQLITE_STORE 'with an index on (run_uuid, key) instead: each series in logged order' '
	cp "$TMP/noidx.db" "$TMP/rk.db" &&
	sqlite3 "$TMP/rk.db" "CREATE INDEX rk ON metrics(run_uuid, key)" &&
	test_status 0 "$AMDAHL" --store "$TMP/rk-s.db" ingest "$TMP/rk.db" &&
	test_eq "$(db_points "$a" il_b "$TMP/rk.db" | sha256sum)" \
		"$(st_points "$a" il_b "$TMP/rk-s.db" | sha256sum)"
'
test_done
