# formats_mlflow.sh — the MLflow forms other than the file store (SQLite
# backend, `mlflow experiments csv`, itwinai's points CSV, REST runs/search
# and metrics/get-history), each generated at test time from the real
# cpu-strong-scaling file store by tests/fixtures/mlflow_forms.py, must
# give the same runs, params, tags and metric values as the file store.
test_description='MLflow forms other than the file store give the file store'\''s runs, params, tags and metrics'
. "$(dirname "$0")/../test-lib.sh"

MLRUNS="$DATA/cpu-strong-scaling/mlruns"
F="$TMP/forms"
hist="" hrun="" fs_runs="" again_out="" nans="" trunc_line=""
bad_file="" bad_needle=""

KV="SELECT r.ext_id, d.s, x.value FROM %s x JOIN run r ON r.id=x.run_id JOIN dict d ON d.id=x.key_id ORDER BY 1,2"
ALL="SELECT r.ext_id, d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id ORDER BY 1,2,3"
LAST="SELECT r.ext_id, d.s, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id"
LATEST="$LAST WHERE m.step=(SELECT max(step) FROM metric_point n WHERE n.run_id=m.run_id AND n.key_id=m.key_id) ORDER BY 1,2"
H="SELECT d.s, m.step, m.ts_ms, m.value FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id"
# the epoch_time_s points of run $2 in store $1: all of them, and their count (times $3)
history_of() { q "$1" "$H WHERE r.ext_id='$2' AND d.s='epoch_time_s' ORDER BY 2"; }
history_count() { q "$1" "SELECT count(*)${3:-} FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$2' AND d.s='epoch_time_s'"; }
H2_POINTS="SELECT group_concat(step||'|'||ts_ms||'|'||coalesce(value,''), '|') FROM (SELECT step, ts_ms, CASE WHEN value>1e308 THEN 'Inf' ELSE value END value FROM metric_point ORDER BY step)"
# a get-history document with NaN and Infinity strings, int64 as strings
H2_JSON='{"metrics":[{"key":"loss","value":"NaN","timestamp":"1795347936041","step":"3"},{"key":"loss","value":"Infinity","timestamp":1795347936042,"step":4}]}'
# points.csv with pandas' empty NaN on its first row and inf on its second
NANPTS_AWK='NR==2{$3=""} NR==3{$3="inf"}1'
NAN_INF="SELECT (SELECT count(*) FROM metric_point WHERE value IS NULL), (SELECT count(*) FROM metric_point WHERE value>1e308)"
ADD_COLUMNS_AND_NAN="ALTER TABLE runs ADD COLUMN new_col TEXT; ALTER TABLE metrics ADD COLUMN other INTEGER;
 UPDATE metrics SET is_nan=1, value=0 WHERE key='train_loss' AND step=0"
# runs --json without "traces": only the file store carries artifacts (traces)
NO_TRACES='jdump({**d, "runs": [{k: v for k, v in r.items() if k != "traces"} for r in d["runs"]]})'
runs_no_traces() { "$AMDAHL" --store "$1" runs --json | json_get - "$NO_TRACES"; }
# python's own count of runs in mlflow.db, and of rows in points.csv
PY_DB_RUNS='import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs").fetchone()[0])'
PY_CSV_ROWS='import csv, sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))'

test_expect_success PYTHON 'setup: the fixture generator writes the forms; the file store ingests' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$MLRUNS" "$F" &&
	hist=$(ls "$F"/history-*.json) &&
	hrun=$(basename "$hist" | sed "s/^history-\(.*\)-epoch_time_s.json$/\1/") &&
	"$AMDAHL" --store "$TMP/fs.db" ingest "$MLRUNS" >/dev/null
'
test_expect_success PYTHON 'setup: every form ingests (exit 0): sqlite backend, experiments csv, runs/search json, points csv, get-history json with --run' '
	test_status 0 "$AMDAHL" --store "$TMP/db.db" ingest "$F/mlflow.db"
	test_status 0 "$AMDAHL" --store "$TMP/csv.db" ingest --sweep cpu-strong-scaling "$F/runs.csv"
	test_status 0 "$AMDAHL" --store "$TMP/js.db" ingest --sweep cpu-strong-scaling "$F/search.json"
	test_status 0 "$AMDAHL" --store "$TMP/pt.db" ingest "$F/points.csv"
	test_status 0 "$AMDAHL" --store "$TMP/h.db" ingest --sweep cpu-strong-scaling --run "$hrun" "$hist"
'
test_expect_success SQLITE3 'file store has the sweep'\''s 29 runs' '
	test_eq 29 "$(q "$TMP/fs.db" "SELECT count(*) FROM run")"
'
test_expect_success PYTHON 'python sees 29 runs in mlflow.db' '
	test_eq 29 "$("$PY" -c "$PY_DB_RUNS" "$F/mlflow.db")"
'
test_expect_success PYTHON 'setup: the file store'\''s runs --json' '
	fs_runs=$(runs_no_traces "$TMP/fs.db")
'
for s in db csv js; do
	test_expect_success PYTHON "runs --json from $s equals the file store's" '
		test_eq "$fs_runs" "$(runs_no_traces "$TMP/$s.db")"
	'
done

for t in param tag; do
	# shellcheck disable=SC2059
	sql=$(printf "$KV" "$t")
	test_expect_success SQLITE3 "file store has ${t}s" '
		test_eq 1 "$([ -n "$(q "$TMP/fs.db" "$sql")" ] && echo 1)"
	'
	for s in db csv js; do
		test_expect_success SQLITE3 "${t}s from $s equal the file store's" '
			test_eq "$(q "$TMP/fs.db" "$sql")" "$(q "$TMP/$s.db" "$sql")"
		'
	done
done

test_expect_success SQLITE3,PYTHON 'file store: metric points as python counts them' '
	test_eq "$("$PY" -c "$PY_CSV_ROWS" "$F/points.csv")" "$(q "$TMP/fs.db" "SELECT count(*) FROM metric_point")"
'
test_expect_success SQLITE3 'sqlite backend: every metric point equals the file store'\''s' '
	test_eq "$(q "$TMP/fs.db" "$ALL")" "$(q "$TMP/db.db" "$ALL")"
'
test_expect_success SQLITE3 'points csv: every metric point equals the file store'\''s' '
	test_eq "$(q "$TMP/fs.db" "$ALL")" "$(q "$TMP/pt.db" "$ALL")"
'
test_expect_success SQLITE3 'experiments csv: last values equal the file store'\''s latest, all at step 0' '
	test_eq "$(q "$TMP/fs.db" "$LATEST")" "$(q "$TMP/csv.db" "$LAST ORDER BY 1,2")"
	test_eq 0 "$(q "$TMP/csv.db" "SELECT count(*) FROM metric_point WHERE step<>0")"
'
test_expect_success SQLITE3 'runs/search: latest values equal the file store'\''s' '
	test_eq "$(q "$TMP/fs.db" "$LATEST")" "$(q "$TMP/js.db" "$LAST ORDER BY 1,2")"
'
test_expect_success SQLITE3 'get-history: points equal the file store'\''s for that run' '
	test_eq "$(history_of "$TMP/fs.db" "$hrun")" "$(q "$TMP/h.db" "$H ORDER BY 2")"
'
test_expect_success SQLITE3 'get-history: linked to the run named by --run' '
	test_eq "$hrun" "$(q "$TMP/h.db" "SELECT name FROM run")"
'
test_expect_success 'setup: get-history for a run already in the store (exit 0)' '
	test_status 0 "$AMDAHL" --store "$TMP/db.db" ingest --sweep cpu-strong-scaling --run "$hrun" "$hist"
'
test_expect_success SQLITE3 'get-history: points join that run'\''s own' '
	test_eq "$(history_count "$TMP/fs.db" "$hrun" "*2")" "$(history_count "$TMP/db.db" "$hrun")"
'
test_expect_success 'setup: the same sqlite file again (exit 0)' '
	test_status 0 "$AMDAHL" --store "$TMP/db.db" ingest "$F/mlflow.db"
	again_out="$OUT$ERR"
'
test_expect_success 'same sqlite file again adds nothing' '
	test_contains "1 unchanged" "$again_out"
'

# NaN and a column MLflow added later; statuses as text
test_expect_success SQLITE3 'setup: mlflow.db with added columns and is_nan points ingests (exit 0)' '
	cp "$F/mlflow.db" "$TMP/nan.db" &&
	sqlite3 "$TMP/nan.db" "$ADD_COLUMNS_AND_NAN" &&
	nans=$(sqlite3 "$TMP/nan.db" "SELECT count(*) FROM metrics WHERE is_nan=1") &&
	test_status 0 "$AMDAHL" --store "$TMP/nan.store" ingest "$TMP/nan.db"
'
test_expect_success SQLITE3 'is_nan=1 points stored as NaN (NULL)' '
	test_eq "$nans" "$(q "$TMP/nan.store" "SELECT count(*) FROM metric_point WHERE value IS NULL")"
'
test_expect_success SQLITE3 'FAILED status read from text' '
	test_eq "$(q "$TMP/fs.db" "SELECT count(*) FROM run WHERE status=4")" "$(q "$TMP/nan.store" "SELECT count(*) FROM run WHERE status=4")"
'
test_expect_success 'setup: get-history with NaN and Infinity strings ingests (exit 0)' '
	printf "%s" "$H2_JSON" >"$TMP/h2.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/h2.store" ingest --sweep h2 --run x "$TMP/h2.json"
'
test_expect_success SQLITE3 'NaN string stored as NULL, Infinity as Inf, int64 strings read' '
	test_eq "3|1795347936041||4|1795347936042|Inf" "$(q "$TMP/h2.store" "$H2_POINTS")"
'
test_expect_success 'setup: points csv with pandas'\'' empty NaN and inf ingests (exit 0)' '
	awk -F, "$NANPTS_AWK" OFS=, "$F/points.csv" >"$TMP/nanpts.csv" &&
	test_status 0 "$AMDAHL" --store "$TMP/nanpts.store" ingest "$TMP/nanpts.csv"
'
test_expect_success SQLITE3 'empty value stored as NaN, inf as Inf' '
	test_eq "1|1" "$(q "$TMP/nanpts.store" "$NAN_INF")"
'

# bad inputs: one line naming the file and line, exit 2, store unchanged
make_bad_inputs() {
	sed '1s/metric_name/metric/' "$F/points.csv" >"$TMP/badhdr.csv" &&
	awk -F, 'NR==5{$3="fast"}1' OFS=, "$F/points.csv" >"$TMP/nonnum.csv" &&
	head -c $(($(wc -c <"$F/points.csv") - 30)) "$F/points.csv" >"$TMP/trunc.csv" &&
	trunc_line=$(wc -l <"$TMP/trunc.csv" | awk '{print $1+1}') &&
	awk -F, 'NR==3{$7="n/a"}1' OFS=, "$F/runs.csv" >"$TMP/runsbad.csv" &&
	head -c 4000 "$F/search.json" >"$TMP/broken.json" &&
	cp "$F/mlflow.db" "$TMP/nokey.db" && sqlite3 "$TMP/nokey.db" "ALTER TABLE metrics RENAME COLUMN value TO val" &&
	head -c 50000 "$F/mlflow.db" >"$TMP/cut.db"
}
# bad_input FILE NEEDLE: ingesting FILE into fs.db exits 2 with one error
# line containing NEEDLE, and fs.db is unchanged
bad_input() {
	local before
	before=$(store_digest "$TMP/fs.db")
	test_status 2 "$AMDAHL" --store "$TMP/fs.db" ingest "$1"
	test_contains "$2" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$TMP/fs.db")"
}
# bad TITLE FILE NEEDLE: the case of one bad input
bad() {
	bad_file=$2 bad_needle=$3
	test_expect_success SQLITE3 "$1: exit 2, one error line naming the place, store unchanged" '
		bad_input "$bad_file" "$bad_needle"
	'
}
test_expect_success SQLITE3,PYTHON 'setup: the forms broken eight ways' '
	make_bad_inputs
'
bad "points csv with a wrong header" "$TMP/badhdr.csv" "badhdr.csv: line 1: no column 'metric_name'"
bad "points csv with a non-numeric value" "$TMP/nonnum.csv" "nonnum.csv: line 5: column 'value': 'fast' is not a number"
bad "truncated points csv" "$TMP/trunc.csv" "trunc.csv: line $trunc_line:"
bad "experiments csv with a non-numeric metric" "$TMP/runsbad.csv" "runsbad.csv: line 3: column 'metrics.epoch_time_s': 'n/a' is not a number"
bad "truncated runs/search json" "$TMP/broken.json" "broken.json: line "
bad "get-history without --run" "$hist" "give --run"
bad "mlflow.db without metrics.value" "$TMP/nokey.db" "table metrics has no column value"
bad "truncated mlflow.db" "$TMP/cut.db" "cut.db: byte 0: not a readable SQLite database"

# issue 36: ISO 8601 zone offsets without a colon (+0530, strftime's %z) or
# of hours alone (-07) are times, as python's datetime reads them
test_expect_success SQLITE3,PYTHON 'experiments csv with zones +0530 and -07: run start and end = python datetime' '
	sed "2s/\(2026-11-22 11:44:15.196000\)+00:00/\1+0530/; 2s/\(2026-11-22 11:44:34.120000\)+00:00/\1-07/" \
		"$AMDAHL_ROOT/tests/fixtures/formats/mlflow-csv/input" >"$TMP/zones.csv" &&
	test_contains "+0530" "$(sed -n 2p "$TMP/zones.csv")" &&
	test_status 0 "$AMDAHL" --store "$TMP/zones.db" ingest --format mlflow-csv "$TMP/zones.csv" &&
	want=$("$PY" -c "import csv, sys, datetime as dt; r = list(csv.DictReader(open(sys.argv[1])))[0]; f = lambda s: round(dt.datetime.strptime(s + (\"00\" if len(s.rsplit(\"-\", 1)[1]) == 2 and s[-3] in \"+-\" else \"\"), \"%Y-%m-%d %H:%M:%S.%f%z\").timestamp() * 1000); print(\"%d|%d\" % (f(r[\"start_time\"]), f(r[\"end_time\"])))" "$TMP/zones.csv") &&
	test_eq "$want" "$(q "$TMP/zones.db" "SELECT start_ms, end_ms FROM run WHERE ext_id LIKE '"'"'35b98d95%'"'"'")"
'

test_done
