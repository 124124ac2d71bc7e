# ingest.sh — the real sweeps go in with exact counts, each checked
# against the files themselves (find/wc/grep), re-ingesting adds
# nothing, and a changed metric file replaces that run's points.
test_description='ingest: exact counts against the files, re-ingest, a changed metric file'
. "$(dirname "$0")/../test-lib.sh"

cpu=$TMP/cpu
S=$TMP/a.db
it=$DATA/itwinai-layout/mllogs
I=$TMP/it.db
runs_files="" finished_files="" failed_files="" running_files="" points_files=""
params_files="" tags_files="" traces_files="" units=""
ingest_out="" again_out="" changed_out="" before="" after=""
rid="" rdir="" mf="" key="" others="" run_points=""
workers_files="" launches_files=""

# the store's facts about run RUN (ext_id) and metric KEY
key_sum() { q "$S" "SELECT printf('%.6f', sum(value)) FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$1' AND d.s='$2'"; }
key_last_step() { q "$S" "SELECT step FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$1' AND d.s='$2' ORDER BY ts_ms DESC, step DESC LIMIT 1"; }
points_of() { q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id='$1'"; }
points_of_others() { q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id<>'$1'"; }
value_at_step_999() { q "$S" "SELECT value FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id='$1' AND step=999"; }
MLFLOW_SOURCES="SELECT count(*) FROM source WHERE kind='mlflow-run'"
# a metric file's sum of values and last step (awk)
FILE_SUM='NF{s+=$2} END{printf "%.6f", s}'
FILE_LAST_STEP='NF{s=$3} END{print s}'
# in `runs --json` (json_get): launches, worker runs folded in, launches
# whose workers are not their world size
LAUNCHES='len(d["runs"])'
FOLDED='sum(r["children"] for r in d["runs"])'
WORKERS_NOT_N='" ".join(r["id"] for r in d["runs"] if r["children"] != r["n"])'

# count_files: what the copied CPU sweep holds, by find/grep
count_files() {
	runs_files=$(find "$cpu" -mindepth 2 -maxdepth 2 -type d | while read -r d; do [ -f "$d/meta.yaml" ] && echo "$d"; done | wc -l)
	finished_files=$(grep -l '^status: 3$' "$cpu"/*/*/meta.yaml | wc -l)
	failed_files=$(grep -l '^status: 4$' "$cpu"/*/*/meta.yaml | wc -l)
	running_files=$(grep -l '^status: 1$' "$cpu"/*/*/meta.yaml | wc -l)
	points_files=$(find "$cpu" -path '*/metrics/*' -type f -exec cat {} + | awk 'NF' | wc -l)
	params_files=$(find "$cpu" -path '*/params/*' -type f | wc -l)
	tags_files=$(find "$cpu" -path '*/tags/*' -type f | wc -l)
	traces_files=$(find "$cpu" -path '*/artifacts/*' -name '*.pt.trace.json*' -type f | wc -l)
	units=$((runs_files + traces_files)) # each run directory and each trace is one unit
}
# pick_run: the first finished run, its directory and first metric file
pick_run() {
	rid=$(basename "$(dirname "$(grep -l '^status: 3$' "$cpu"/*/*/meta.yaml | head -1)")")
	rdir=$(find "$cpu" -mindepth 2 -maxdepth 2 -name "$rid")
	mf=$(find "$rdir/metrics" -type f | sort | head -1)
	key=${mf#"$rdir/metrics/"}
	[ -n "$rid" ] && [ -f "$mf" ]
}
# count_itwinai: worker runs (with a parent run id) and launches (without)
count_itwinai() {
	workers_files=$(find "$it" -path '*/tags/mlflow.parentRunId' -type f | wc -l)
	launches_files=$(find "$it" -mindepth 4 -maxdepth 4 -name meta.yaml | while read -r m; do
		[ -f "$(dirname "$m")/tags/mlflow.parentRunId" ] || echo "$m"; done | wc -l)
}

test_expect_success 'setup: a copy of the CPU sweep, counted by find/grep' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$cpu" &&
	count_files &&
	pick_run
'
test_expect_success 'files: 29 runs' '
	test_eq 29 "$runs_files"
'
test_expect_success 'files: 24 finished, 4 failed, 1 running' '
	test_eq "24 4 1" "$finished_files $failed_files $running_files"
'
test_expect_success 'setup: the cpu sweep ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu"
	ingest_out=$OUT
'
test_expect_success 'summary line counts every run directory and trace added' '
	test_contains "$units added, 0 replaced, 0 unchanged, 0 failed" "$ingest_out"
'
test_expect_success SQLITE3 '29 runs, 29 sources (one per run directory)' '
	test_eq "$runs_files" "$(q "$S" "SELECT count(*) FROM run")"
	test_eq 29 "$(q "$S" "$MLFLOW_SOURCES")"
'
test_expect_success SQLITE3 'statuses: 24 finished, 4 failed, 1 running, 5 not finished' '
	test_eq "$finished_files" "$(q "$S" "SELECT count(*) FROM run WHERE status=3")"
	test_eq "$failed_files" "$(q "$S" "SELECT count(*) FROM run WHERE status=4")"
	test_eq "$running_files" "$(q "$S" "SELECT count(*) FROM run WHERE status=1")"
	test_eq 5 "$(q "$S" "SELECT count(*) FROM run WHERE status<>3")"
'
test_expect_success SQLITE3 'metric points = non-blank lines of the metric files; params = param files; tags = tag files' '
	test_eq "$points_files" "$(q "$S" "SELECT count(*) FROM metric_point")"
	test_eq "$params_files" "$(q "$S" "SELECT count(*) FROM param")"
	test_eq "$tags_files" "$(q "$S" "SELECT count(*) FROM tag")"
'
# one run checked value by value against its files
test_expect_success SQLITE3 'a finished run: its first metric file'\''s sum of values and last step' '
	test_eq "$(awk "$FILE_SUM" "$mf")" "$(key_sum "$rid" "$key")"
	test_eq "$(awk "$FILE_LAST_STEP" "$mf")" "$(key_last_step "$rid" "$key")"
'

# again: nothing new
test_expect_success SQLITE3 'setup: re-ingest (exit 0)' '
	before=$(store_digest "$S")
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu"
	again_out=$OUT
	after=$(store_digest "$S")
'
test_expect_success 're-ingest: all unchanged' '
	test_contains "0 added, 0 replaced, $units unchanged, 0 failed" "$again_out"
'
test_expect_success SQLITE3 're-ingest leaves the store as it was' '
	test_eq "$before" "$after"
'

# a changed metric file replaces that run's points, and only those
test_expect_success SQLITE3 'setup: a point appended to one metric file; the changed run re-ingests (exit 0)' '
	echo "1700000000000 0.5 999" >>"$mf" &&
	others=$(points_of_others "$rid") &&
	run_points=$(find "$rdir/metrics" -type f -exec cat {} + | awk NF | wc -l)
	test_status 0 "$AMDAHL" --store "$S" ingest "$cpu"
	changed_out=$OUT
'
test_expect_success 'changed run: one replaced, the rest unchanged' '
	test_contains "0 added, 1 replaced, $((units - 1)) unchanged, 0 failed" "$changed_out"
'
test_expect_success SQLITE3 'changed run: points = its file lines now, the new point is there' '
	test_eq "$run_points" "$(points_of "$rid")"
	test_eq 0.5 "$(value_at_step_999 "$rid")"
'
test_expect_success SQLITE3 'changed run: other runs'\'' points untouched' '
	test_eq "$others" "$(points_of_others "$rid")"
'
test_expect_success SQLITE3 'changed run: still 29 runs and one source per unit, no facts of a dropped source' '
	test_eq "29 $units" "$(q "$S" "SELECT count(*) FROM run") $(q "$S" "SELECT count(*) FROM source")"
	test_eq 0 "$(q "$S" "SELECT count(*) FROM metric_point WHERE source_id NOT IN (SELECT id FROM source)")"
'

# itwinai: launches and their worker runs folded in
test_expect_success 'setup: the itwinai layout counted by find' '
	count_itwinai
'
test_expect_success 'files: 6 itwinai launches' '
	test_eq 6 "$launches_files"
'
test_expect_success 'setup: the itwinai layout ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$I" ingest "$it"
	"$AMDAHL" --store "$I" runs --json >"$TMP/it.json"
'
test_expect_success PYTHON 'itwinai: 6 launches listed' '
	test_eq "$launches_files" "$(json_get "$TMP/it.json" "$LAUNCHES")"
'
test_expect_success PYTHON 'itwinai: every worker run folded into its launch' '
	test_eq "$workers_files" "$(json_get "$TMP/it.json" "$FOLDED")"
'
test_expect_success PYTHON 'itwinai: workers per launch = its world size' '
	test_eq "" "$(json_get "$TMP/it.json" "$WORKERS_NOT_N")"
'

# symlink loops in a walked tree are walked once, not followed 64 deep
test_expect_success 'setup: a tree with symlink loops ingests (exit 0)' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/loop" &&
	ln -s .. "$TMP/loop/4/up" &&
	ln -s "$TMP/loop" "$TMP/loop/4/again" &&
	test_status 0 "$AMDAHL" --store "$TMP/loop.db" ingest "$TMP/loop"
'
test_expect_success SQLITE3 'symlink loops: each run once' '
	test_eq 29 "$(q "$TMP/loop.db" "SELECT count(*) FROM run")"
'

# -j and --rank are whole numbers in range; anything else is a usage error
# that creates no store
test_expect_success '-j and --rank refuse what is not a whole number in range' '
	for bad in "-j 0" "-j 257" "-j 2x" "--rank -1" "--rank 1.5" "--rank x"; do
		test_status 2 "$AMDAHL" --store "$TMP/opt.db" ingest $bad "$DATA/cpu-strong-scaling/mlruns"
		test_contains "${bad%% *} ${bad#* }:" "$ERR"
	done
	test_eq absent "$(store_digest "$TMP/opt.db")"
'

# ingest --formats: every row of the format table with what it reads
test_expect_success 'ingest --formats lists every format, each with its variants' '
	test_status 0 "$AMDAHL" ingest --formats &&
	test_eq "$(grep -c "^	&amd_fmt_" "$AMDAHL_ROOT/lib/ingest/formats.c")" "$(printf "%s\n" "$OUT" | grep -c .)" &&
	test_contains "pyspy-svg            py-spy record -o profile.svg" "$OUT" &&
	test_contains "csv,noheader (--query)" "$OUT" &&
	test_contains "other Chrome traces (TensorFlow, JAX, perfetto) refused" "$OUT" &&
	test_eq 0 "$(printf "%s\n" "$OUT" | awk "NF < 2" | wc -l)"
'

test_done
