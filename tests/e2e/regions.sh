#!/bin/bash
# Regions end to end: the region rows the readers report for traces
# (ops by Kineto category, collectives), itwinai operator averages and
# py-spy stacks, checked against the independent readings of the same
# files (tests/oracle/regions_oracle.py); a run, a sweep per
# configuration and one region across a sweep; filters and limits; a
# changed file replaces its regions.
test_description='amdahl regions: one region model over every profiler'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"
CPU="$DATA/cpu-strong-scaling/mlruns"
RUN2=352060eb92854d39b18812809e22c265 # ddp n=2 repeat 0: traces of ranks 0 and 1
TR0=$(ls "$CPU"/*/$RUN2/artifacts/traces/rank0.*)
TR1=$(ls "$CPU"/*/$RUN2/artifacts/traces/rank1.*)
GPU_TRACE=$(ls "$DATA"/gpu-batch-sweep/mlruns/*/*/artifacts/traces/* | head -1)
OPAVG=$(ls "$DATA"/itwinai-layout/mllogs/mlflow/*/*/artifacts/torch_profiling_averages/*.csv | head -1)

# regions FILE|RUN|SWEEP [options] — `regions … --json` into $TMP/r.json
regions() { "$AMDAHL" --store "$S" regions "$@" --json >"$TMP/r.json"; }
oracle() { "$PY" "$ORACLE" "$@" 2>&1; }

test_expect_success 'setup: ingest the CPU and GPU sweeps, itwinai, py-spy files' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$CPU" "$DATA/gpu-batch-sweep/mlruns" \
		"$DATA/itwinai-layout" "$DATA/pyspy"
'
test_expect_success PYTHON 'a CPU trace: ops and collectives equal the oracle' '
	regions "$TR0" -n 0
	test_eq ok "$(oracle trace "$TR0" "$TMP/r.json")"
'
test_expect_success PYTHON 'a CUDA trace: kernels, memcpy, runtime calls equal the oracle' '
	regions "$GPU_TRACE" -n 0
	test_eq ok "$(oracle trace "$GPU_TRACE" "$TMP/r.json")"
	test_contains kernel "$(json_get "$TMP/r.json" "sorted({r[\"kind\"] for r in d[\"regions\"]})")"
'
test_expect_success PYTHON 'itwinai operator averages equal the CSV read by Python' '
	regions "$OPAVG" -n 0
	test_eq ok "$(oracle opavg "$OPAVG" "$TMP/r.json")"
'
test_expect_success PYTHON 'py-spy functions (self, total once per stack) equal the oracle' '
	regions "$DATA/pyspy/train-raw.txt" -n 0
	test_eq ok "$(oracle pyspy collapsed "$DATA/pyspy/train-raw.txt" "$TMP/r.json")"
	regions "$DATA/pyspy/train.chrometrace.json" -n 0
	test_eq ok "$(oracle pyspy chrometrace "$DATA/pyspy/train.chrometrace.json" "$TMP/r.json")"
'
test_expect_success PYTHON 'shares add up to 1 per profiler, kind and rank' '
	regions "$TR0" -n 0
	test_eq "[1.0]" "$(json_get "$TMP/r.json" "sorted({round(float(sum(x[\"share\"] for x in d[\"regions\"] if (x[\"source\"],x[\"kind\"],x[\"rank\"])==k)), 9) for k in {(r[\"source\"],r[\"kind\"],r[\"rank\"]) for r in d[\"regions\"]}})")"
'
test_expect_success PYTHON 'a run: the rows of its rank files, largest self time first' '
	regions "$TR0" -n 0 && cp "$TMP/r.json" "$TMP/r0.json"
	regions "$TR1" -n 0 && cp "$TMP/r.json" "$TMP/r1.json"
	regions "$RUN2" -n 0
	test_eq "$(json_get "$TMP/r0.json" "len(d[\"regions\"])") $(json_get "$TMP/r1.json" "len(d[\"regions\"])")" \
		"$(json_get "$TMP/r.json" "sum(r[\"rank\"]==0 for r in d[\"regions\"])") $(json_get "$TMP/r.json" "sum(r[\"rank\"]==1 for r in d[\"regions\"])")"
	test_eq "$(json_get "$TMP/r0.json" "sum(r[\"self_ns\"] for r in d[\"regions\"])")" \
		"$(json_get "$TMP/r.json" "sum(r[\"self_ns\"] for r in d[\"regions\"] if r[\"rank\"]==0)")"
	test_eq True "$(json_get "$TMP/r.json" "[r[\"self_ns\"] for r in d[\"regions\"]] == sorted((r[\"self_ns\"] for r in d[\"regions\"]), reverse=True)")"
'
test_expect_success PYTHON 'a sweep: per configuration, the sum over ranks (one run with traces)' '
	regions cpu-strong-scaling -n 0 --kind op --source torch
	want=$(json_get "$TMP/r0.json" "[r[\"self_ns\"] for r in d[\"regions\"] if r[\"name\"]==\"aten::convolution_backward\"][0]")
	want=$((want + $(json_get "$TMP/r1.json" "[r[\"self_ns\"] for r in d[\"regions\"] if r[\"name\"]==\"aten::convolution_backward\"][0]")))
	test_eq "$want 1" "$(json_get "$TMP/r.json" "[(r[\"self_ns\"], r[\"runs\"]) for r in d[\"regions\"] if r[\"name\"]==\"aten::convolution_backward\" and r[\"strategy\"]==\"ddp\" and r[\"n\"]==2][0]" | tr -d "(),")"
	test_eq "[(\"ddp\", 1), (\"ddp\", 2), (\"ddp\", 4), (\"ddp\", 8), (\"fsdp\", 1), (\"fsdp\", 2), (\"fsdp\", 4), (\"fsdp\", 8)]" \
		"$(json_get "$TMP/r.json" "sorted({(r[\"strategy\"], r[\"n\"]) for r in d[\"regions\"]})" | tr "\047" "\"")"
'
test_expect_success PYTHON 'a sweep: --kind and --source keep only their rows' '
	regions cpu-strong-scaling -n 0 --kind collective --source torch
	test_eq "collective torch" "$(json_get "$TMP/r.json" "\" \".join(sorted({r[\"kind\"] for r in d[\"regions\"]}) + sorted({r[\"source\"] for r in d[\"regions\"]}))")"
	regions cpu-strong-scaling -n 0 --kind op
	test_eq "op" "$(json_get "$TMP/r.json" "\" \".join(sorted({r[\"kind\"] for r in d[\"regions\"]}))")"
'
test_expect_success PYTHON 'a sweep of pooled launches: the mean per run' '
	regions mnist-scaling -n 0 --source torch-averages
	test_eq 2 "$(json_get "$TMP/r.json" "[r[\"runs\"] for r in d[\"regions\"] if r[\"name\"]==\"aten::mm\" and r[\"n\"]==1][0]")"
'
test_expect_success PYTHON 'one region across a sweep: every run and rank that has it' '
	regions cpu-strong-scaling --region aten::convolution_backward --kind op
	test_eq 30 "$(json_get "$TMP/r.json" "len(d[\"points\"])")"
	test_eq "$(json_get "$TMP/r1.json" "[r[\"self_ns\"] for r in d[\"regions\"] if r[\"name\"]==\"aten::convolution_backward\"][0]")" \
		"$(json_get "$TMP/r.json" "[p[\"self_ns\"] for p in d[\"points\"] if p[\"run\"]==\"$RUN2\" and p[\"rank\"]==1][0]")"
'
test_expect_success PYTHON '--kind, --source and -n select and limit rows' '
	regions "$GPU_TRACE" --kind kernel -n 3
	test_eq "3 kernel" "$(json_get "$TMP/r.json" "len(d[\"regions\"])") $(json_get "$TMP/r.json" "\" \".join(sorted({r[\"kind\"] for r in d[\"regions\"]}))")"
	test_true "more than 3 kernels" [ "$(json_get "$TMP/r.json" "d[\"rows\"]")" -gt 3 ]
	regions "$RUN2" --source py-spy
	test_eq 0 "$(json_get "$TMP/r.json" "len(d[\"regions\"])")"
'
test_expect_success 'the table: header, rows, the hint about -n' '
	test_status 0 "$AMDAHL" --store "$S" regions "$RUN2" -n 2
	test_contains "self ms" "$OUT"
	test_contains "(2 of " "$OUT"
'
test_expect_success PYTHON 'the report: "Where the time goes" stacks the shares regions gives' '
	test_status 0 "$AMDAHL" --store "$S" report build --sweep cpu-strong-scaling -o "$TMP/rep"
	regions cpu-strong-scaling -n 0
	test_eq "8 columns ok" "$("$PY" "$AMDAHL_ROOT/tests/lib/region_shares_on_chart.py" "$TMP/rep/charts/region_shares.svg" "$TMP/r.json")"
	want=$("$PY" "$AMDAHL_ROOT/tests/lib/region_mix_expect.py" "$TMP/r.json")
	test_contains "$want" "$(tr "\n" " " <"$TMP/rep/summary.md")"
'
test_expect_success PYTHON,PDFTOTEXT 'the report: the "Where the time goes" table holds the top 5 regions of each configuration' '
	pdftotext -layout "$TMP/rep/report.pdf" "$TMP/rep.txt"
	regions cpu-strong-scaling -n 0
	test_eq "40 rows ok" "$("$PY" "$AMDAHL_ROOT/tests/lib/region_table_in_pdf.py" "$TMP/rep.txt" "$TMP/r.json")"
	test_contains "regions cpu-strong-scaling --source torch --kind nvtx -n 5" "$(tr "\n" " " <"$TMP/rep.txt")"
'
test_expect_success 'a name that is nothing in the store: exit 2, one line' '
	test_status 2 "$AMDAHL" --store "$S" regions no-such-thing
	test_contains "no-such-thing: no run" "$ERR"
	test_status 2 "$AMDAHL" --store "$S" regions "$RUN2" --region aten::mm
	test_contains "not a sweep" "$ERR"
'
test_expect_success SQLITE3,PYTHON 'a changed file replaces its regions, others keep theirs' '
	T="$TMP/rank0.t.pt.trace.json.gz"
	zcat "$TR0" | gzip -1 >"$T" # new bytes: not a duplicate of TR0
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$T"
	others="SELECT count(*) FROM region WHERE source_id <> (SELECT id FROM source WHERE path='\''$T'\'')"
	n_others=$(q "$S" "$others")
	zcat "$GPU_TRACE" | gzip -1 >"$T"
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$T"
	regions "$T" -n 0
	test_eq ok "$(oracle trace "$GPU_TRACE" "$TMP/r.json")"
	test_eq "$n_others" "$(q "$S" "$others")"
	test_eq 0 "$(q "$S" "SELECT count(*) FROM region WHERE source_id NOT IN (SELECT id FROM source)")"
'
test_done
