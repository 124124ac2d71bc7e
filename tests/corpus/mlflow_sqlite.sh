# mlflow_sqlite.sh — a real MLflow 3.x SQLite backend: mlflow.db is built
# from ../shared/data/public/mlflow/mlflow3-sqlite-dump.sql with sqlite3,
# ingested, and its runs, params, tags and metrics checked against
# sqlite3 queries on that database.
. tests/e2e/lib.sh
DUMP="$PUBLIC/mlflow/mlflow3-sqlite-dump.sql"
M="$TMP/mlflow.db"
S="$TMP/amdahl.db"
sqlite3 "$M" <"$DUMP" || fail "the dump loads into sqlite3"
before=$(sha256sum <"$M")
status "mlflow.db ingests" 0 "$AMDAHL" --store "$S" ingest "$M"
contains "detected as the SQLite backend" "1 added" "$OUT$ERR"
eq "its 8 runs" 8 "$(q "$S" 'SELECT count(*) FROM run')"
eq "8 runs in the dump too" 8 "$(q "$M" "SELECT count(*) FROM runs WHERE lifecycle_stage='active'")"
eq "statuses from text" "$(q "$M" "SELECT group_concat(run_uuid||':'||status, ' ') FROM (SELECT * FROM runs ORDER BY run_uuid)")" \
  "$(q "$S" "SELECT group_concat(ext_id||':'||CASE status WHEN 3 THEN 'FINISHED' WHEN 4 THEN 'FAILED' WHEN 5 THEN 'KILLED' WHEN 1 THEN 'RUNNING' ELSE status END, ' ') FROM (SELECT * FROM run ORDER BY ext_id)")"
eq "run names and experiment" "$(q "$M" "SELECT group_concat(r.run_uuid||':'||r.name||':'||e.name, ' ') FROM (SELECT * FROM runs ORDER BY run_uuid) r JOIN experiments e USING(experiment_id)")" \
  "$(q "$S" "SELECT group_concat(r.ext_id||':'||r.name||':'||s.name, ' ') FROM (SELECT * FROM run ORDER BY ext_id) r JOIN sweep s ON s.id=r.sweep_id")"
eq "metric points per run" "$(q "$M" 'SELECT run_uuid, count(*) FROM metrics GROUP BY run_uuid ORDER BY 1')" \
  "$(q "$S" 'SELECT r.ext_id, count(*) FROM metric_point m JOIN run r ON r.id=m.run_id GROUP BY 1 ORDER BY 1')"
eq "metric values" "$(q "$M" 'SELECT run_uuid, key, step, timestamp, value FROM metrics ORDER BY 1,2,3,4')" \
  "$(q "$S" 'SELECT r.ext_id, d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3,4')"
eq "params" "$(q "$M" 'SELECT run_uuid, key, value FROM params ORDER BY 1,2')" \
  "$(q "$S" 'SELECT r.ext_id, d.s, p.value FROM param p JOIN run r ON r.id=p.run_id JOIN dict d ON d.id=p.key_id ORDER BY 1,2')"
eq "tags" "$(q "$M" 'SELECT run_uuid, key, value FROM tags ORDER BY 1,2')" \
  "$(q "$S" 'SELECT r.ext_id, d.s, t.value FROM tag t JOIN run r ON r.id=t.run_id JOIN dict d ON d.id=t.key_id ORDER BY 1,2')"
eq "mlflow.db's bytes unchanged (opened read-only)" "$before" "$(sha256sum <"$M")"
eq "no journal or WAL left beside it" "" "$(ls "$M"-* 2>/dev/null)"
