# report_labels.sh — the report's labels say what the numbers are of:
# the "Computation vs other" chart, its subtitle, axis and sentence name
# the time its computation fraction is a share of from what the traces
# hold — self CPU time on the bundled CPU sweep (its traces have no GPU
# activity), GPU time on a sweep of CUDA traces (tests/explain/
# gen_sweep.py --gpu) — never CUDA on a CPU-only sweep; and the terminal
# says when compute and communication overlap (their shares sum past
# 100% of the window) as the report does.
test_description='report labels: the computation fraction names CPU or GPU time, as the traces hold'
. "$(dirname "$0")/../test-lib.sh"

GEN="$AMDAHL_ROOT/tests/explain/gen_sweep.py"
section() { sed -n '/^### Computation vs other/,/^### /p' "$1"; }

test_expect_success 'CPU sweep: self CPU time, said to stand in for CUDA time, in the Markdown and the PDF' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/cpu" &&
	sec=$(section "$TMP/cpu/summary.md") &&
	test_contains "the self CPU time of operators matching aten::" "$sec" &&
	test_contains "The traces hold no GPU activity (a CPU-only sweep)" "$sec" &&
	test_not_contains "self CUDA time of" "$sec" &&
	test_not_contains "GPU time (%)" "$(cat "$TMP/cpu/report.json")"
'
test_expect_success PDFTOTEXT 'CPU sweep: the chart'\''s subtitle and axis in the PDF say CPU' '
	pdftotext "$TMP/cpu/report.pdf" "$TMP/cpu.txt" &&
	sec=$(grep -A3 "Computation vs other" "$TMP/cpu.txt") &&
	test_contains "aten/c10/autograd self CPU time over all ops" "$sec" &&
	test_contains "share of profiled CPU time (%)" "$sec" &&
	test_not_contains "CUDA" "$sec"
'
test_expect_success PYTHON 'a sweep of CUDA traces: GPU time, no CPU-only sentence' '
	"$PY" "$GEN" "$TMP/gpu" --seed 3 --gpu --ns 1,2 --repeats 2 --straggler none &&
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$TMP/gpu/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" report build -o "$TMP/gpurep" &&
	sec=$(section "$TMP/gpurep/summary.md") &&
	test_contains "the self GPU time of operators matching aten::" "$sec" &&
	test_not_contains "CPU-only" "$sec"
'
test_expect_success 'the terminal says when compute + communication pass 100% of the window' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats &&
	test_contains "their shares add up to as much as 149% of the trace window" "$OUT"
'
test_done
