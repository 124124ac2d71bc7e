#!/bin/bash
# mlflow_artifacts.sh — what users leave in an MLflow run's artifacts
# besides PyTorch traces (issue 36, item 10): a TensorFlow profiler trace
# (plugins/profile/<run>/<host>.trace.json.gz, as TensorBoard's profile
# plugin stores it; tests/lib/trace_variants.py tf) is refused with a
# warning while the run and its other artifacts are kept (exit 0); a
# TensorBoard event file (testdata/tensorboard, PyTorch's SummaryWriter)
# joins the run whose artifacts hold it, in either ingest order, instead
# of becoming a run "tb" of a sweep named "artifacts". A real run of
# testdata/cpu-strong-scaling with its 8 rank traces carries them; without
# its world-size params, its traces' distributedInfo.world_size is its n.
test_description='MLflow artifacts: a TensorFlow trace refused with a warning, TensorBoard logs join their run'
. "$(dirname "$0")/../test-lib.sh"

RUN_ID=05cf34910a624beb8c790ed12d3403cf
SRC="$DATA/cpu-strong-scaling/mlruns/4/$RUN_ID"
ML="$TMP/mlruns"
R="$ML/4/$RUN_ID"
TF="$R/artifacts/plugins/profile/2026_11_22_11_40_00/host.trace.json.gz"
TB_SRC="$DATA/tensorboard/tb-sweep/dp-n2-r0"
ORACLE="$AMDAHL_ROOT/tests/oracle/tfevents_oracle.py"
TB_POINTS="SELECT printf('%s|%d|%d|%d|%.9g', d.s, count(*), min(step), max(step), sum(value))
 FROM metric_point m JOIN dict d ON d.id=m.key_id JOIN source s ON s.id=m.source_id
 JOIN run r ON r.id=m.run_id WHERE s.kind='tensorboard' AND r.ext_id='$RUN_ID' GROUP BY d.s ORDER BY d.s"

test_expect_success PYTHON 'setup: a run with 8 rank traces, a TensorFlow trace and a TensorBoard file in its artifacts' '
	mkdir -p "$ML/4" "$(dirname "$TF")" "$R/artifacts/tensorboard" &&
	cp -r "$SRC" "$ML/4/" && cp "$SRC/../meta.yaml" "$ML/4/" &&
	"$PY" "$AMDAHL_ROOT/tests/lib/trace_variants.py" tf "$(ls "$R"/artifacts/traces/rank0.*)" "$TF" &&
	cp "$TB_SRC"/events.out.tfevents.* "$R/artifacts/tensorboard/" &&
	test_eq 8 "$(ls "$R"/artifacts/traces | grep -c pt.trace.json.gz)"
'
test_expect_success 'the run ingests: exit 0, one warning naming the TensorFlow trace, "1 refused" in the summary' '
	test_status 0 "$AMDAHL" --store "$TMP/a.db" ingest "$ML" &&
	test_eq "amdahl ingest: warning: $TF: a Chrome trace from another profiler (TensorFlow, JAX, perfetto, Chrome?): no key or event category of PyTorch'\''s profiler (Kineto); not read" "$ERR" &&
	test_contains "10 added, 0 replaced, 0 unchanged, 0 failed, 1 refused" "$OUT"
'
test_expect_success SQLITE3 'the run, its params and its 8 traces are stored; the TensorFlow trace is no source' '
	test_eq 1 "$(q "$TMP/a.db" "SELECT count(*) FROM run")" &&
	test_eq "$RUN_ID|FINISHED" "$(q "$TMP/a.db" "SELECT ext_id, CASE status WHEN 3 THEN '"'"'FINISHED'"'"' ELSE status END FROM run")" &&
	test_eq "$(ls "$SRC/params" | wc -l)" "$(q "$TMP/a.db" "SELECT count(*) FROM param")" &&
	test_eq 8 "$(q "$TMP/a.db" "SELECT count(*) FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='"'"'$RUN_ID'"'"'")" &&
	test_eq 0 "$(q "$TMP/a.db" "SELECT count(*) FROM source WHERE path LIKE '"'"'%plugins/profile%'"'"'")"
'
test_expect_success SQLITE3 'the TensorBoard file joins the MLflow run: one sweep, no run "tensorboard", no sweep "artifacts"' '
	test_eq "cpu-strong-scaling" "$(q "$TMP/a.db" "SELECT group_concat(name) FROM sweep")" &&
	test_eq 0 "$(q "$TMP/a.db" "SELECT count(*) FROM run WHERE ext_id LIKE '"'"'tensorboard:%'"'"'")"
'
test_expect_success SQLITE3,PYTHON 'its scalars are the MLflow run'\''s: count, steps and sum per tag = the python reader' '
	test_eq "$("$PY" "$ORACLE" scalars "$R"/artifacts/tensorboard/events.out.tfevents.*)" "$(q "$TMP/a.db" "$TB_POINTS")"
'
test_expect_success PYTHON 'ingest --json: the TensorFlow trace is "refused" with its reason, the other units have no warning' '
	"$AMDAHL" --store "$TMP/j.db" ingest --json "$ML" >"$TMP/a.json" &&
	test_eq "refused|True" \
		"$(json_get "$TMP/a.json" "[u[\"result\"] + \"|\" + str(u[\"refused\"].startswith(\"$TF: a Chrome trace from another profiler\")) for u in d[\"units\"] if u[\"path\"] == \"$TF\"][0]")" &&
	test_eq 0 "$(json_get "$TMP/a.json" "sum(len(u[\"warnings\"]) for u in d[\"units\"])")"
'
test_expect_success SQLITE3 'the TensorBoard file first, then the run: the same one run holds its scalars' '
	test_status 0 "$AMDAHL" --store "$TMP/b.db" ingest "$R"/artifacts/tensorboard/events.out.tfevents.* &&
	test_status 0 "$AMDAHL" --store "$TMP/b.db" ingest "$ML" &&
	test_eq 1 "$(q "$TMP/b.db" "SELECT count(*) FROM run")" &&
	test_eq "cpu-strong-scaling" "$(q "$TMP/b.db" "SELECT group_concat(name) FROM sweep")" &&
	test_eq "$(q "$TMP/a.db" "$TB_POINTS")" "$(q "$TMP/b.db" "$TB_POINTS")"
'
test_expect_success SQLITE3 'with -j 4 as well: exit 0, the same warning, the same facts' '
	test_status 0 "$AMDAHL" --store "$TMP/c.db" ingest -j 4 "$ML" &&
	test_contains "warning: $TF: a Chrome trace from another profiler" "$ERR" &&
	test_eq "$(q "$TMP/a.db" "$TB_POINTS")" "$(q "$TMP/c.db" "$TB_POINTS")" &&
	test_eq 8 "$(q "$TMP/c.db" "SELECT count(*) FROM trace")"
'
test_expect_success 'the TensorFlow trace named on its own still fails (exit 2)' '
	test_status 2 "$AMDAHL" --store "$TMP/d.db" ingest "$TF" &&
	test_contains "a Chrome trace from another profiler" "$ERR"
'

# a run whose params give no world size (no world_size, num_gpus, …):
# its traces' distributedInfo.world_size is its n; a param wins over them
NOWS="$TMP/nows"
NR="$NOWS/4/$RUN_ID"
PY_WORLD='import gzip, json, sys; print(max(json.load(gzip.open(f))["distributedInfo"]["world_size"] for f in sys.argv[1:]))'
test_expect_success 'setup: the run without its world_size and num_gpus params' '
	mkdir -p "$NOWS/4" && cp -r "$SRC" "$NOWS/4/" && cp "$SRC/../meta.yaml" "$NOWS/4/" &&
	rm "$NR/params/world_size" "$NR/params/num_gpus"
'
test_expect_success SQLITE3,PYTHON 'no world-size param: the run'\''s n is its traces'\'' distributedInfo.world_size (= python)' '
	test_status 0 "$AMDAHL" --store "$TMP/w.db" ingest "$NOWS" &&
	test_eq "$("$PY" -c "$PY_WORLD" "$NR"/artifacts/traces/*.gz)" "$(q "$TMP/w.db" "SELECT n FROM run")"
'
test_expect_success SQLITE3,PYTHON 'the traces first, then the run: the same n' '
	test_status 0 "$AMDAHL" --store "$TMP/w2.db" ingest "$NR"/artifacts/traces &&
	test_status 0 "$AMDAHL" --store "$TMP/w2.db" ingest "$NOWS" &&
	test_eq "$("$PY" -c "$PY_WORLD" "$NR"/artifacts/traces/*.gz)" "$(q "$TMP/w2.db" "SELECT n FROM run")"
'
test_expect_success SQLITE3 'a world_size param wins over the traces'\'' world size' '
	printf 6 >"$NR/params/world_size" &&
	test_status 0 "$AMDAHL" --store "$TMP/w3.db" ingest "$NOWS" &&
	test_eq 6 "$(q "$TMP/w3.db" "SELECT n FROM run")"
'

test_done
