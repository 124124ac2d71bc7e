# formats_mlflow.sh — the MLflow forms other than the file store (SQLite
# backend, `mlflow experiments csv`, itwinai's points CSV, REST runs/search
# and metrics/get-history), each generated at test time from the real
# cpu-strong-scaling file store by tests/fixtures/mlflow_forms.py, must
# give the same runs, params, tags and metric values as the file store.
. tests/e2e/lib.sh
MLRUNS="$DATA/cpu-strong-scaling/mlruns"
F="$TMP/forms"
/usr/bin/python3 tests/fixtures/mlflow_forms.py "$MLRUNS" "$F" || fail "fixture generator ran"

A() { "$AMDAHL" --store "$@"; }
A "$TMP/fs.db" ingest "$MLRUNS" >/dev/null
status "sqlite backend ingests" 0 A "$TMP/db.db" ingest "$F/mlflow.db"
status "experiments csv ingests" 0 A "$TMP/csv.db" ingest --sweep cpu-strong-scaling "$F/runs.csv"
status "runs/search json ingests" 0 A "$TMP/js.db" ingest --sweep cpu-strong-scaling "$F/search.json"
status "itwinai points csv ingests" 0 A "$TMP/pt.db" ingest "$F/points.csv"
hist=$(ls "$F"/history-*.json)
hrun=$(basename "$hist" | sed 's/^history-\(.*\)-epoch_time_s.json$/\1/')
status "get-history json ingests with --run" 0 A "$TMP/h.db" ingest --run "$hrun" "$hist"

# runs --json without "traces": only the file store carries artifacts (traces)
runs_no_traces() { A "$1" runs --json | /usr/bin/python3 -c 'import json,sys
d=json.load(sys.stdin)
for r in d["runs"]: r.pop("traces", None)
print(json.dumps(d, sort_keys=True))'; }
fs_runs=$(runs_no_traces "$TMP/fs.db")
eq "file store has the sweep's 29 runs" 29 "$(q "$TMP/fs.db" 'SELECT count(*) FROM run')"
eq "python sees 29 runs in mlflow.db" 29 "$(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$F/mlflow.db")"
for s in db csv js; do
  eq "runs --json from $s equals the file store's" "$fs_runs" "$(runs_no_traces "$TMP/$s.db")"
done

KV="SELECT r.ext_id, d.s, x.value FROM %s x JOIN run r ON r.id=x.run_id JOIN dict d ON d.id=x.key_id ORDER BY 1,2"
for t in param tag; do
  # shellcheck disable=SC2059
  sql=$(printf "$KV" "$t")
  want=$(q "$TMP/fs.db" "$sql")
  eq "file store has ${t}s" 1 "$([ -n "$want" ] && echo 1)"
  for s in db csv js; do
    eq "${t}s from $s equal the file store's" "$want" "$(q "$TMP/$s.db" "$sql")"
  done
done

ALL="SELECT r.ext_id, d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3"
all=$(q "$TMP/fs.db" "$ALL")
eq "file store: metric points as python counts them" \
  "$(/usr/bin/python3 -c "import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))" "$F/points.csv")" \
  "$(q "$TMP/fs.db" 'SELECT count(*) FROM metric_point')"
eq "sqlite backend: every metric point equals the file store's" "$all" "$(q "$TMP/db.db" "$ALL")"
eq "points csv: every metric point equals the file store's" "$all" "$(q "$TMP/pt.db" "$ALL")"

LAST="SELECT r.ext_id, d.s, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id"
latest=$(q "$TMP/fs.db" "$LAST WHERE m.step=(SELECT max(step) FROM metric_point n WHERE n.run_id=m.run_id AND n.key_id=m.key_id) ORDER BY 1,2")
eq "experiments csv: last values equal the file store's latest" "$latest" "$(q "$TMP/csv.db" "$LAST ORDER BY 1,2")"
eq "experiments csv: last values at step 0" 0 "$(q "$TMP/csv.db" 'SELECT count(*) FROM metric_point WHERE step<>0')"
eq "runs/search: latest values equal the file store's" "$latest" "$(q "$TMP/js.db" "$LAST ORDER BY 1,2")"

H="SELECT d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id"
eq "get-history: points equal the file store's for that run" \
  "$(q "$TMP/fs.db" "$H WHERE r.ext_id='$hrun' AND d.s='epoch_time_s' ORDER BY 2")" \
  "$(q "$TMP/h.db" "$H ORDER BY 2")"
eq "get-history: linked to the run named by --run" "$hrun" "$(q "$TMP/h.db" 'SELECT name FROM run')"
status "get-history for a run already in the store" 0 A "$TMP/db.db" ingest --run "$hrun" "$hist"
eq "get-history: points join that run's own" \
  "$(q "$TMP/fs.db" "SELECT count(*)*2 FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$hrun' AND d.s='epoch_time_s'")" \
  "$(q "$TMP/db.db" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$hrun' AND d.s='epoch_time_s'")"

status "same sqlite file again" 0 A "$TMP/db.db" ingest "$F/mlflow.db"
contains "same sqlite file again adds nothing" "1 unchanged" "$OUT$ERR"

# NaN and a column MLflow added later; statuses as text
cp "$F/mlflow.db" "$TMP/nan.db"
sqlite3 "$TMP/nan.db" "ALTER TABLE runs ADD COLUMN new_col TEXT; ALTER TABLE metrics ADD COLUMN other INTEGER;
 UPDATE metrics SET is_nan=1, value=0 WHERE key='train_loss' AND step=0"
nans=$(sqlite3 "$TMP/nan.db" "SELECT count(*) FROM metrics WHERE is_nan=1")
status "mlflow.db with added columns ingests" 0 A "$TMP/nan.store" ingest "$TMP/nan.db"
eq "is_nan=1 points stored as NaN (NULL)" "$nans" "$(q "$TMP/nan.store" 'SELECT count(*) FROM metric_point WHERE value IS NULL')"
eq "FAILED status read from text" "$(q "$TMP/fs.db" 'SELECT count(*) FROM run WHERE status=4')" "$(q "$TMP/nan.store" 'SELECT count(*) FROM run WHERE status=4')"
printf '{"metrics":[{"key":"loss","value":"NaN","timestamp":"1795347936041","step":"3"},{"key":"loss","value":"Infinity","timestamp":1795347936042,"step":4}]}' >"$TMP/h2.json"
status "get-history with NaN and Infinity strings" 0 A "$TMP/h2.store" ingest --run x "$TMP/h2.json"
eq "NaN string stored as NULL, Infinity as Inf, int64 strings read" "3|1795347936041||4|1795347936042|Inf" \
  "$(q "$TMP/h2.store" "SELECT group_concat(step||'|'||ts_ms||'|'||coalesce(value,''), '|') FROM (SELECT step, ts_ms, CASE WHEN value>1e308 THEN 'Inf' ELSE value END value FROM metric_point ORDER BY step)")"

awk -F, 'NR==2{$3=""} NR==3{$3="inf"}1' OFS=, "$F/points.csv" >"$TMP/nanpts.csv"
status "points csv with pandas' empty NaN and inf" 0 A "$TMP/nanpts.store" ingest "$TMP/nanpts.csv"
eq "empty value stored as NaN, inf as Inf" "1|1" \
  "$(q "$TMP/nanpts.store" "SELECT (SELECT count(*) FROM metric_point WHERE value IS NULL), (SELECT count(*) FROM metric_point WHERE value>1e308)")"

# bad inputs: one line naming the file and line, exit 2, store unchanged
bad() { # DESC FILE EXPECTED_TEXT [ARGS...]
  local desc=$1 file=$2 text=$3; shift 3
  local before; before=$(store_digest "$TMP/fs.db")
  status "$desc: exit 2" 2 A "$TMP/fs.db" ingest "$@" "$file"
  contains "$desc: error names the place" "$text" "$ERR"
  eq "$desc: one line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
  eq "$desc: store unchanged" "$before" "$(store_digest "$TMP/fs.db")"
}
sed '1s/metric_name/metric/' "$F/points.csv" >"$TMP/badhdr.csv"
bad "points csv with a wrong header" "$TMP/badhdr.csv" "badhdr.csv: line 1: no column 'metric_name'"
awk -F, 'NR==5{$3="fast"}1' OFS=, "$F/points.csv" >"$TMP/nonnum.csv"
bad "points csv with a non-numeric value" "$TMP/nonnum.csv" "nonnum.csv: line 5: column 'value': 'fast' is not a number"
head -c $(( $(wc -c <"$F/points.csv") - 30 )) "$F/points.csv" >"$TMP/trunc.csv"
bad "truncated points csv" "$TMP/trunc.csv" "trunc.csv: line $(wc -l <"$TMP/trunc.csv" | awk '{print $1+1}'):"
awk -F, 'NR==3{$7="n/a"}1' OFS=, "$F/runs.csv" >"$TMP/runsbad.csv"
bad "experiments csv with a non-numeric metric" "$TMP/runsbad.csv" "runsbad.csv: line 3: column 'metrics.epoch_time_s': 'n/a' is not a number"
head -c 4000 "$F/search.json" >"$TMP/broken.json"
bad "truncated runs/search json" "$TMP/broken.json" "broken.json: line "
bad "get-history without --run" "$hist" "give --run"
cp "$F/mlflow.db" "$TMP/nokey.db"; sqlite3 "$TMP/nokey.db" "ALTER TABLE metrics RENAME COLUMN value TO val"
bad "mlflow.db without metrics.value" "$TMP/nokey.db" "table metrics has no column value"
head -c 50000 "$F/mlflow.db" >"$TMP/cut.db"
bad "truncated mlflow.db" "$TMP/cut.db" "cut.db: byte 0: not a readable SQLite database"
