# grouping.sh — issue 13 item 9, on a real-shaped MLflow 1.x Projects
# store (testdata/mlflow1-projects: runs with `name: ''`, told apart by
# entry point, source and params) and copies of the bundled sweeps:
# unnamed runs are repeats only of runs with the same entry point, source
# and params (tests/oracle/mlflow_groups.py computes the same from the
# files); MLflow's `Default` experiment of two trees makes two sweeps,
# named after the folder holding each tree; `runs` and `stats` leave out
# the same runs for the same reason (one rule); "left out" lines name a
# run without empty fields; deleted runs are not counted as added and
# leave nothing in the store.
test_description='unnamed MLflow runs grouped, Default per tree, one world-size rule, deleted runs not added'
. "$(dirname "$0")/../test-lib.sh"

P="$DATA/mlflow1-projects/mlruns"
S=$TMP/p.db
# runs --json as "ID REPEAT GROUPING" lines, sorted by id (the oracle's shape)
RUN_GROUPS='"\n".join("%s %d %s" % (r["id"], r["repeat"], "named" if r["name"] is not None else "grouped" if r["grouped_by"].startswith("entry") else "ungrouped") for r in sorted(d["runs"], key=lambda r: r["id"]))'

test_expect_success 'setup: the MLflow 1.x Projects store ingests, every run added' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$P" &&
	test_contains "$(ls -d "$P"/0/*/ | wc -l) added" "$OUT"
'
test_expect_success PYTHON 'unnamed runs: repeats are runs of the same entry point, source and params (oracle)' '
	"$AMDAHL" --store "$S" runs --json >"$TMP/r.json" &&
	"$PY" "$AMDAHL_ROOT/tests/oracle/mlflow_groups.py" "$P" >"$TMP/want" &&
	json_get "$TMP/r.json" "$RUN_GROUPS" >"$TMP/got" &&
	test_eq "$(cat "$TMP/want")" "$(cat "$TMP/got")" &&
	test_eq 1 "$(json_get "$TMP/r.json" "max(r[\"repeat\"] for r in d[\"runs\"])")"
'
test_expect_success PYTHON 'two als runs with max_iter 10 are repeats 0 and 1; the one with max_iter 20 is repeat 0' '
	for r in $(grep -rlx 10 "$P"/0/*/params/max_iter); do basename "$(dirname "$(dirname "$r")")"; done >"$TMP/ten" &&
	r20=$(basename "$(dirname "$(dirname "$(grep -rlx 20 "$P"/0/*/params/max_iter)")")") &&
	test_eq "0 1" "$(json_get "$TMP/r.json" "\" \".join(str(r[\"repeat\"]) for r in sorted(d[\"runs\"], key=lambda r: r[\"start_ms\"]) if r[\"id\"] in open(\"$TMP/ten\").read().split())")" &&
	test_eq 0 "$(json_get "$TMP/r.json" "first(d[\"runs\"], id=\"$r20\")[\"repeat\"]")"
'
test_expect_success 'runs says how unnamed runs were grouped: (SOURCE:ENTRY) labels and a note' '
	test_status 0 "$AMDAHL" --store "$S" runs &&
	test_contains "(multistep_workflow:als)" "$OUT" &&
	test_contains "(ipykernel_launcher.py)" "$OUT" &&
	test_contains "(no name)" "$OUT" &&
	test_contains "note: 13 runs without a name, shown as (SOURCE:ENTRY): runs of the same entry point, source and params are repeats of each other" "$OUT" &&
	test_contains "note: 1 run without a name, entry point, source or params: not grouped" "$OUT"
'
test_expect_success 'stats names each left-out unnamed run by its id, no empty fields' '
	test_status 0 "$AMDAHL" --store "$S" stats &&
	test_not_contains "left out:  (" "$OUT" &&
	test_not_contains "(, " "$OUT" &&
	id=$(basename "$(dirname "$(grep -l "^status: 4" "$P"/0/*/meta.yaml)")") &&
	test_contains "left out: $id (repeat 1): FAILED" "$OUT"
'
test_expect_success 'stats of a named run keeps name, strategy, repeat and id' '
	test_status 0 "$AMDAHL" --store "$TMP/c.db" ingest "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/c.db" stats &&
	test_contains "left out: fsdp-n1 (fsdp, repeat 0, d93f7848477a41139ea3f1d681956d13): FAILED" "$OUT"
'

# ---- Default experiments of two trees ----
test_expect_success 'two trees whose experiment is Default: two sweeps, each named after its folder' '
	mkdir -p "$TMP/lab-a" "$TMP/lab-b" &&
	cp -r "$P" "$TMP/lab-a/mlruns" && cp -r "$P" "$TMP/lab-b/mlruns" &&
	grep -q "^name: Default$" "$TMP/lab-a/mlruns/0/meta.yaml" &&
	find "$TMP/lab-b/mlruns/0" -name meta.yaml -mindepth 2 -exec sed -i "s/^run_id: \(.*\)/run_id: b\1/; s/^run_uuid: \(.*\)/run_uuid: b\1/" {} + &&
	test_status 0 "$AMDAHL" --store "$TMP/two.db" ingest "$TMP/lab-a/mlruns" "$TMP/lab-b/mlruns" &&
	test_eq "lab-a
lab-b" "$(q "$TMP/two.db" "SELECT name FROM sweep ORDER BY name")" &&
	n=$(ls -d "$P"/0/*/ | wc -l) &&
	test_eq "$n $n" "$(q "$TMP/two.db" "SELECT group_concat(c, \" \") FROM (SELECT count(*) c FROM run GROUP BY sweep_id)")"
'
test_expect_success '--sweep still names the sweep of a Default tree' '
	test_status 0 "$AMDAHL" --store "$TMP/sw.db" ingest --sweep mine "$P" &&
	test_eq mine "$(q "$TMP/sw.db" "SELECT group_concat(name) FROM sweep")"
'

# ---- one world-size rule ----
test_expect_success 'setup: the GPU sweep with one finished run made without a world size' '
	cp -r "$DATA/gpu-batch-sweep/mlruns" "$TMP/g" &&
	nw=$(dirname "$(dirname "$(ls "$TMP"/g/1/*/params/num_gpus | head -1)")") &&
	grep -q "^status: 3$" "$nw/meta.yaml" &&
	rm "$nw/params/num_gpus" &&
	test_status 0 "$AMDAHL" --store "$TMP/g.db" ingest "$TMP/g"
'
test_expect_success PYTHON 'runs and stats leave out the same runs, for the same reason' '
	nw=$(basename "$(dirname "$(dirname "$(ls "$DATA"/gpu-batch-sweep/mlruns/1/*/params/num_gpus | head -1)")")") &&
	"$AMDAHL" --store "$TMP/g.db" runs --json >"$TMP/gr.json" &&
	"$AMDAHL" --store "$TMP/g.db" stats --json >"$TMP/gs.json" &&
	test_eq "False no axis value (world size unknown)" "$(json_get "$TMP/gr.json" "\" \".join([str(first(d[\"runs\"], id=\"$nw\")[\"in_statistics\"]), first(d[\"runs\"], id=\"$nw\")[\"left_out\"]])")" &&
	test_eq "no axis value (world size unknown)" "$(json_get "$TMP/gs.json" "first(sweep()[\"excluded\"], id=\"$nw\")[\"excluded\"]")" &&
	json_get "$TMP/gr.json" "\"\n\".join(sorted(r[\"id\"] + \" \" + r[\"left_out\"] for r in d[\"runs\"] if not r[\"in_statistics\"]))" >"$TMP/out-runs" &&
	json_get "$TMP/gs.json" "\"\n\".join(sorted(r[\"id\"] + \" \" + r[\"excluded\"] for r in sweep()[\"excluded\"]))" >"$TMP/out-stats" &&
	test_eq "$(cat "$TMP/out-runs")" "$(cat "$TMP/out-stats")"
'
test_expect_success 'runs counts it apart: "1 without a world size", not "in statistics"' '
	test_status 0 "$AMDAHL" --store "$TMP/g.db" runs &&
	fin=$(grep -l "^status: 3$" "$TMP"/g/1/*/meta.yaml | wc -l) &&
	test_contains "$((fin - 1)) in statistics" "$OUT" &&
	test_contains ", 1 without a world size" "$OUT"
'

# ---- deleted runs ----
test_expect_success 'setup: a copy of the CPU sweep with one run (and its traces) deleted' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/d" &&
	dr=$(dirname "$(dirname "$(find "$TMP/d" -path "*/artifacts/*" -name "*.json*" | sort | head -1)")") &&
	while [ "$(basename "$(dirname "$dr")")" != mlruns ] && [ ! -f "$dr/meta.yaml" ]; do dr=$(dirname "$dr"); done &&
	echo "$dr" >"$TMP/dr" &&
	sed -i "s/^lifecycle_stage: active$/lifecycle_stage: deleted/" "$dr/meta.yaml" &&
	grep -q "^lifecycle_stage: deleted$" "$dr/meta.yaml"
'
test_expect_success SQLITE3 'a deleted run is not added: a note says so, nothing of it (or its traces) is stored' '
	dr=$(cat "$TMP/dr") && id=$(basename "$dr") &&
	units=$(ls "$TMP"/d/*/*/meta.yaml | wc -l) &&
	traces=$(find "$TMP/d" -path "*/artifacts/*" -name "*.json*" -not -path "$dr/*" | wc -l) &&
	test_status 0 "$AMDAHL" --store "$TMP/d.db" ingest "$TMP/d" &&
	test_contains "$((units - 1 + traces)) added" "$OUT" &&
	test_contains ", 1 with nothing to add" "$OUT" &&
	test_contains "note: $dr: nothing to add: a deleted run (lifecycle_stage: deleted)" "$ERR" &&
	test_eq 0 "$(q "$TMP/d.db" "SELECT count(*) FROM run WHERE ext_id = '\''$id'\''")" &&
	test_eq 0 "$(q "$TMP/d.db" "SELECT count(*) FROM source WHERE path LIKE '\''$dr%'\''")" &&
	test_eq 0 "$(q "$TMP/d.db" "SELECT count(*) FROM sweep WHERE name = '\''default'\''")"
'
test_expect_success SQLITE3 'ingested again: still nothing to add, store unchanged' '
	before=$(store_digest "$TMP/d.db") &&
	test_status 0 "$AMDAHL" --store "$TMP/d.db" ingest "$TMP/d" &&
	test_contains "0 added" "$OUT" && test_contains ", 1 with nothing to add" "$OUT" &&
	test_eq "$before" "$(store_digest "$TMP/d.db")"
'
test_expect_success PYTHON 'ingest --json: the deleted run is "skipped" with why' '
	dr=$(cat "$TMP/dr") &&
	"$AMDAHL" --store "$TMP/d.db" ingest --json "$TMP/d" >"$TMP/dj.json" &&
	test_eq "skipped a deleted run (lifecycle_stage: deleted): its artifacts are not read either" \
		"$(json_get "$TMP/dj.json" "\" \".join([first(d[\"units\"], path=\"$dr\")[\"result\"], first(d[\"units\"], path=\"$dr\")[\"nothing_to_add\"]])")"
'
test_expect_success SQLITE3 'a run deleted after it was ingested: its run, params and metrics leave the store' '
	cp -r "$TMP/lab-a" "$TMP/lab-c" &&
	test_status 0 "$AMDAHL" --store "$TMP/e.db" ingest "$TMP/lab-c/mlruns" &&
	gone=$(dirname "$(grep -rlx 20 "$TMP"/lab-c/mlruns/0/*/params/max_iter)") && gone=$(dirname "$gone") &&
	test_eq 1 "$(q "$TMP/e.db" "SELECT count(*) FROM run WHERE ext_id = '\''$(basename "$gone")'\''")" &&
	sed -i "s/^lifecycle_stage: active$/lifecycle_stage: deleted/" "$gone/meta.yaml" &&
	test_status 0 "$AMDAHL" --store "$TMP/e.db" ingest "$TMP/lab-c/mlruns" &&
	test_contains ", 1 with nothing to add" "$OUT" &&
	test_eq 0 "$(q "$TMP/e.db" "SELECT count(*) FROM run WHERE ext_id = '\''$(basename "$gone")'\''")" &&
	test_eq 0 "$(q "$TMP/e.db" "SELECT count(*) FROM param p JOIN run r ON r.id = p.run_id WHERE r.ext_id = '\''$(basename "$gone")'\''")" &&
	test_eq 0 "$(q "$TMP/e.db" "SELECT count(*) FROM source WHERE path = '\''$gone'\''")" &&
	test_eq "$(( $(ls -d "$P"/0/*/ | wc -l) - 1 ))" "$(q "$TMP/e.db" "SELECT count(*) FROM run")"
'
test_expect_success 'ingest --formats names the 1.x unnamed runs and the nothing-to-add cases' '
	test_status 0 "$AMDAHL" ingest --formats &&
	test_contains "1.x Projects runs without a name (grouped by entry point, source, params); a deleted run: nothing to add" "$OUT" &&
	test_contains "one without runs: nothing to add" "$OUT"
'
test_done
