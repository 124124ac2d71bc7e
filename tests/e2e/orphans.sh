# orphans.sh — traces and GPU logs ingested without a run are never
# orphaned silently (issue 13 item 6): ingest warns and counts them,
# `runs --orphans` lists them, `ingest --run` on a file already held
# links it without reading it again, `link FILE RUN` links one, and a
# GPU log whose samples fall inside runs' times is not an orphan.
test_description='orphans: warned, listed, linked by --run and by link'
. "$(dirname "$0")/../test-lib.sh"

T=$TMP/traces
S=$TMP/s.db
G=$TMP/g.db
n_traces="" out="" err="" first="" second="" run="" before="" tid=""
ORPHANS='len(d["orphans"])'
ORPHAN_PATHS='"\n".join(sorted(o["path"] for o in d["orphans"]))'
# the run id of the first finished bf16-b8 run of the GPU sweep (grep)
first_run() {
	grep -l '^status: 3$' "$DATA"/gpu-batch-sweep/mlruns/1/*/meta.yaml | while read -r m; do
		d=$(dirname "$m")
		[ "$(cat "$d/tags/mlflow.runName" 2>/dev/null)" = bf16-b8 ] && basename "$d"
	done | head -1
}
trace_run_of() { q "$S" "SELECT COALESCE(r.ext_id, '-') FROM trace t JOIN source s ON s.id=t.source_id LEFT JOIN run r ON r.id=t.run_id WHERE s.path='$1'"; }
trace_id_of() { q "$S" "SELECT t.id || '/' || s.id || '/' || s.ingested_at FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path='$1'"; }

test_expect_success 'setup: the CPU sweep traces copied out of their runs' '
	mkdir "$T" &&
	find "$DATA/cpu-strong-scaling/mlruns" -name "*.pt.trace.json.gz" -exec cp {} "$T" \; &&
	n_traces=$(find "$T" -type f | wc -l) &&
	first=$(find "$T" -type f | sort | head -1) &&
	second=$(find "$T" -type f | sort | sed -n 2p) &&
	run=$(first_run) &&
	test_true "over 10 traces copied" [ "$n_traces" -gt 10 ] &&
	test_true "a finished bf16-b8 run" [ -n "$run" ]
'
test_expect_success 'a folder of traces with no run: the summary counts them unlinked' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$T" &&
	test_contains "$n_traces added" "$OUT" &&
	test_contains "; $n_traces linked to no run;" "$OUT"
'
test_expect_success 'a warning names an unlinked trace and how to link it, the rest are counted' '
	test_contains "warning: $first: linked to no run; link it with '\''amdahl link FILE RUN'\'' or ingest it with --run RUN" "$ERR" &&
	test_eq 10 "$(printf "%s\n" "$ERR" | grep -c "linked to no run; link it")" &&
	test_contains "warning: $((n_traces - 10)) more files linked to no run; '\''amdahl runs --orphans'\'' lists them all" "$ERR"
'
test_expect_success 'runs --orphans lists exactly the copied traces' '
	"$AMDAHL" --store "$S" runs --orphans --json >"$TMP/o.json" &&
	test_eq "$(find "$T" -type f | sort)" "$(json_get "$TMP/o.json" "$ORPHAN_PATHS")"
'
test_expect_success 'runs --orphans as text: one line per file and the count' '
	test_status 0 "$AMDAHL" --store "$S" runs --orphans &&
	test_contains "torch-trace      $first" "$OUT" &&
	test_contains "$n_traces linked to no run" "$OUT"
'
test_expect_success 'setup: the GPU sweep runs ingested (their own traces link by path)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$DATA/gpu-batch-sweep/mlruns" &&
	test_not_contains "linked to no run" "$OUT$ERR"
'
test_expect_success SQLITE3 'ingest --run on a trace already held links it without reading it again' '
	before=$(trace_id_of "$first") &&
	test_eq - "$(trace_run_of "$first")" &&
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$run" "$first" &&
	test_contains "0 added, 0 replaced, 0 unchanged, 0 failed, 1 linked to a run" "$OUT" &&
	test_eq "$run" "$(trace_run_of "$first")" &&
	test_eq "$before" "$(trace_id_of "$first")"
'
test_expect_success 'the same --run again changes nothing and says unchanged' '
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$run" "$first" &&
	test_contains "0 added, 0 replaced, 1 unchanged, 0 failed; 0 other" "$OUT"
'
test_expect_success 'link FILE RUN links an orphan; the orphan list shrinks by two' '
	test_status 0 "$AMDAHL" --store "$S" link "$second" "$run" &&
	test_contains "linked to run" "$OUT" &&
	"$AMDAHL" --store "$S" runs --orphans --json >"$TMP/o2.json" &&
	test_eq $((n_traces - 2)) "$(json_get "$TMP/o2.json" "$ORPHANS")"
'
test_expect_success 'the run now counts both linked traces besides its own' '
	"$AMDAHL" --store "$S" runs --json >"$TMP/r.json" &&
	test_eq "$(($(find "$DATA"/gpu-batch-sweep/mlruns/1/"$run"/artifacts -name "*.pt.trace.json*" | wc -l) + 2))" \
		"$(json_get "$TMP/r.json" "[r[\"traces\"] for r in d[\"runs\"] if r[\"id\"] == \"$run\"][0]")"
'
test_expect_success 'link again: already linked, exit 0' '
	test_status 0 "$AMDAHL" --store "$S" link "$second" "$run" &&
	test_contains "already linked" "$OUT"
'
test_expect_success 'link to a run that does not exist: one line, store unchanged' '
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" link "$second" no-such-run &&
	test_contains "no run '\''no-such-run'\''" "$ERR" &&
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success 'link a file never ingested, or an MLflow run: refused, store unchanged' '
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" link "$DATA/gpu-batch-sweep/nvidia-smi.csv" "$run" &&
	test_contains "not in the store" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$S" link "$DATA/gpu-batch-sweep/mlruns/1/$run" "$run" &&
	test_contains "holds no trace" "$ERR" &&
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success 'a whole-sweep GPU log alone is unlinked ...' '
	test_status 0 "$AMDAHL" --store "$G" ingest "$DATA/gpu-batch-sweep/nvidia-smi.csv" &&
	test_contains "1 linked to no run" "$OUT" &&
	test_contains "nvidia-smi.csv: linked to no run" "$ERR"
'
test_expect_success SQLITE3 '... and linked by time once the runs are in (samples inside run windows)' '
	test_status 0 "$AMDAHL" --store "$G" ingest "$DATA/gpu-batch-sweep/mlruns" &&
	"$AMDAHL" --store "$G" runs --orphans --json >"$TMP/o3.json" &&
	test_eq 0 "$(json_get "$TMP/o3.json" "$ORPHANS")" &&
	test_true "samples in a run window" [ "$(q "$G" "SELECT count(*) FROM gpu_sample g WHERE EXISTS (SELECT 1 FROM run r WHERE g.ts_ms BETWEEN r.start_ms AND r.end_ms)")" -gt 0 ]
'
test_expect_success 'ingest --json marks each unit linked to a run or not' '
	"$AMDAHL" --store "$TMP/j.db" ingest --json "$first" >"$TMP/j.json" &&
	test_eq False "$(json_get "$TMP/j.json" "d[\"units\"][0][\"linked_to_run\"]")"
'
test_done
