# mlflow_sqlite.sh — a real MLflow 3.x SQLite backend: mlflow.db is built
# from ../shared/data/public/mlflow/mlflow3-sqlite-dump.sql with sqlite3,
# ingested, and its runs, params, tags and metrics checked against
# sqlite3 queries on that database.
test_description='a real MLflow 3.x SQLite backend ingests the same as sqlite3 reads it'
. "$(dirname "$0")/../test-lib.sh"

DUMP="$PUBLIC/mlflow/mlflow3-sqlite-dump.sql"
M="$TMP/mlflow.db"
S="$TMP/amdahl.db"
before="" ingest_out=""

# each fact as the dump's database has it (MLFLOW_*) and as the store has it (STORE_*)
MLFLOW_ACTIVE="SELECT count(*) FROM runs WHERE lifecycle_stage='active'"
MLFLOW_STATUS="SELECT group_concat(run_uuid||':'||status, ' ') FROM (SELECT * FROM runs ORDER BY run_uuid)"
STORE_STATUS="SELECT group_concat(ext_id||':'||CASE status WHEN 3 THEN 'FINISHED' WHEN 4 THEN 'FAILED' WHEN 5 THEN 'KILLED' WHEN 1 THEN 'RUNNING' ELSE status END, ' ') FROM (SELECT * FROM run ORDER BY ext_id)"
MLFLOW_NAMES="SELECT group_concat(r.run_uuid||':'||r.name||':'||e.name, ' ') FROM (SELECT * FROM runs ORDER BY run_uuid) r JOIN experiments e USING(experiment_id)"
STORE_NAMES="SELECT group_concat(r.ext_id||':'||r.name||':'||s.name, ' ') FROM (SELECT * FROM run ORDER BY ext_id) r JOIN sweep s ON s.id=r.sweep_id"
MLFLOW_POINTS_PER_RUN='SELECT run_uuid, count(*) FROM metrics GROUP BY run_uuid ORDER BY 1'
STORE_POINTS_PER_RUN='SELECT r.ext_id, count(*) FROM metric_point m JOIN run r ON r.id=m.run_id GROUP BY 1 ORDER BY 1'
MLFLOW_METRICS='SELECT run_uuid, key, step, timestamp, value FROM metrics ORDER BY 1,2,3,4'
STORE_METRICS='SELECT r.ext_id, d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3,4'
MLFLOW_PARAMS='SELECT run_uuid, key, value FROM params ORDER BY 1,2'
STORE_PARAMS='SELECT r.ext_id, d.s, p.value FROM param p JOIN run r ON r.id=p.run_id JOIN dict d ON d.id=p.key_id ORDER BY 1,2'
MLFLOW_TAGS='SELECT run_uuid, key, value FROM tags ORDER BY 1,2'
STORE_TAGS='SELECT r.ext_id, d.s, t.value FROM tag t JOIN run r ON r.id=t.run_id JOIN dict d ON d.id=t.key_id ORDER BY 1,2'

test_expect_success SHARED,SQLITE3 'setup: the dump loads into sqlite3' '
	sqlite3 "$M" <"$DUMP" &&
	before=$(sha256sum <"$M")
'
test_expect_success SHARED,SQLITE3 'setup: mlflow.db ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$M"
	ingest_out="$OUT$ERR"
'
test_expect_success SHARED,SQLITE3 'detected as the SQLite backend: one source added' '
	test_contains "1 added" "$ingest_out"
'
test_expect_success SHARED,SQLITE3 'its 8 runs, and 8 active runs in the dump too' '
	test_eq 8 "$(q "$S" "SELECT count(*) FROM run")"
	test_eq 8 "$(q "$M" "$MLFLOW_ACTIVE")"
'
test_expect_success SHARED,SQLITE3 'statuses read from text' '
	test_eq "$(q "$M" "$MLFLOW_STATUS")" "$(q "$S" "$STORE_STATUS")"
'
test_expect_success SHARED,SQLITE3 'run names and experiment' '
	test_eq "$(q "$M" "$MLFLOW_NAMES")" "$(q "$S" "$STORE_NAMES")"
'
test_expect_success SHARED,SQLITE3 'metric points per run' '
	test_eq "$(q "$M" "$MLFLOW_POINTS_PER_RUN")" "$(q "$S" "$STORE_POINTS_PER_RUN")"
'
test_expect_success SHARED,SQLITE3 'metric values' '
	test_eq "$(q "$M" "$MLFLOW_METRICS")" "$(q "$S" "$STORE_METRICS")"
'
test_expect_success SHARED,SQLITE3 'params' '
	test_eq "$(q "$M" "$MLFLOW_PARAMS")" "$(q "$S" "$STORE_PARAMS")"
'
test_expect_success SHARED,SQLITE3 'tags' '
	test_eq "$(q "$M" "$MLFLOW_TAGS")" "$(q "$S" "$STORE_TAGS")"
'
test_expect_success SHARED,SQLITE3 'mlflow.db opened read-only: its bytes unchanged, no journal or WAL left beside it' '
	test_eq "$before" "$(sha256sum <"$M")"
	test_eq "" "$(ls "$M"-* 2>/dev/null)"
'

# an mlflow.db as MLflow leaves it before any run (its runs deleted from
# the real dump): nothing to add, said in a note, not reported as added
# (the same as a deleted file-store run, issue 13 item 9)
test_expect_success SHARED,SQLITE3 'an mlflow.db without runs: nothing to add, a note saying so, store unchanged' '
	mkdir -p "$TMP/empty" &&
	sqlite3 "$TMP/empty/mlflow.db" <"$DUMP" &&
	deleted=$(q "$TMP/empty/mlflow.db" "SELECT count(*) FROM runs") &&
	sqlite3 "$TMP/empty/mlflow.db" "UPDATE runs SET lifecycle_stage='\''deleted'\''" &&
	before_store=$(store_digest "$S") &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/empty/mlflow.db" &&
	test_contains "note: $TMP/empty/mlflow.db: nothing to add: no runs in this MLflow database ($deleted deleted)" "$ERR" &&
	test_contains "0 added" "$OUT" &&
	test_contains ", 1 with nothing to add" "$OUT" &&
	test_eq "$before_store" "$(store_digest "$S")"
'

test_done
