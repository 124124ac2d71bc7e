#!/bin/bash
# Real files saved in other forms than our samples: each variant read as
# the plain file is (numbers against Python's reading), or refused with
# one line naming the file and place, exit 2, store unchanged.
test_description='input variants: byte-order marks, UTF-16, long first lines'
. "$(dirname "$0")/../test-lib.sh"

# stack_facts STORE — "TOTAL DEPTH": the samples of every stack and the
# deepest stack's frames, from the store
stack_facts() {
	q "$1" "WITH RECURSIVE up(leaf, node, d) AS (
		SELECT leaf_id, leaf_id, 1 FROM stack_sample
		UNION ALL SELECT up.leaf, n.parent_id, d + 1 FROM up JOIN stack_node n ON n.id = up.node
		WHERE n.parent_id IS NOT NULL)
	SELECT (SELECT sum(samples) FROM stack_sample) || ' ' || (SELECT max(d) FROM up)"
}

test_expect_success 'setup: a raw py-spy file whose first line is longer than the detection head' '
	mkdir -p "$TMP/deep" &&
	want=$("$PY" "$AMDAHL_ROOT/tests/lib/deep_raw_variants.py" "$TMP/deep")
'
for v in deep deep-bom deep-utf16; do
	test_expect_success SQLITE3 "py-spy raw, long first line: $v.txt read as py-spy, every sample" '
		test_status 0 "$AMDAHL" --store "$TMP/$v.db" ingest -q --sweep s --run r "$TMP/deep/$v.txt" &&
		test_eq pyspy-collapsed "$(q "$TMP/$v.db" "SELECT kind FROM source")" &&
		test_eq "$want" "$(stack_facts "$TMP/$v.db")"
	'
done

# key_averages(group_by_stack_n=N).table(): a "Source Location" column,
# each row's further frames on lines of their own, a blank line after
test_expect_success SQLITE3 'key_averages table grouped by stack: every row read, summed per operator as Python sums them' '
	want=$("$PY" "$AMDAHL_ROOT/tests/lib/keyavg_stack_table.py" "$TMP/stack.keyavg.txt") &&
	test_status 0 "$AMDAHL" --store "$TMP/ka.db" ingest -q --sweep s --run r "$TMP/stack.keyavg.txt" &&
	test_eq "$want" "$(q "$TMP/ka.db" "SELECT d.s, sum(calls), sum(self_ns), sum(total_ns)
		FROM region r JOIN dict d ON d.id = r.name_id JOIN dict k ON k.id = r.kind_id
		WHERE k.s = '\''op'\'' GROUP BY d.s ORDER BY d.s" | tr "\t" "|")"
'

# nvidia-smi when a GPU falls off the bus: NVML's error strings in brackets
test_expect_success SQLITE3 'nvidia-smi log of a GPU lost half way: its bracketed statuses are no values, every other sample read' '
	want=$("$PY" "$AMDAHL_ROOT/tests/lib/nvsmi_lost_gpu.py" "$TMP/lost.csv") &&
	test_status 0 "$AMDAHL" --store "$TMP/lost.db" ingest -q "$TMP/lost.csv" &&
	test_eq "$want" "$(q "$TMP/lost.db" "SELECT gpu, count(*), count(power_w), count(temp_c),
		printf('\''%.3f'\'', sum(power_w)) FROM gpu_sample GROUP BY gpu ORDER BY gpu")"
'
test_expect_success SQLITE3 'a bracketed number is no status: refused with its line and column, store unchanged' '
	sed "3s/, \([0-9]*\)\$/, [\1]/" "$TMP/lost.csv" >"$TMP/lost-num.csv" &&
	test_bad_ingest "$TMP/lost.db" "$TMP/lost-num.csv" "lost-num.csv: line 3: column '\''temperature.gpu'\''"
'

# JSON saved as UTF-16 (Windows PowerShell's >, Notepad's "Unicode"): the
# streamed JSON readers refuse it by name, not as "invalid JSON"
TRACE=$(ls "$DATA"/cpu-strong-scaling/mlruns/4/23bd7a6253644b8ca7b3179690df1c53/artifacts/traces/rank0.*.pt.trace.json.gz)
for f in "$TRACE" "$DATA/pyspy/train.chrometrace.json" "$DATA/pyspy/idle-0.3.14.speedscope.json"; do
	test_expect_success SQLITE3 "UTF-16 $(basename "$f"): refused as UTF-16 on one line, store unchanged" '
		out="$TMP/utf16-$(basename "${f%.gz}")" &&
		"$PY" -c "import gzip, sys; p = sys.argv[1]; t = (gzip.open(p) if p.endswith(\".gz\") else open(p, \"rb\")).read().decode(); open(sys.argv[2], \"w\", encoding=\"utf-16\").write(t)" "$f" "$out" &&
		test_bad_ingest "$TMP/lost.db" "$out" "$out: byte 0: UTF-16 text"
	'
done

# a complete event ("ph": "X") is a start and a length: one without
# "dur" (or "ts") has no time to add; it was taken as 0 ns
for key in dur ts; do
	test_expect_success SQLITE3 "a trace whose 7th X event has no \"$key\": refused naming the event, store unchanged" '
		"$PY" -c "import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
xs = [i for i, e in enumerate(d[\"traceEvents\"]) if e.get(\"ph\") == \"X\"]
del d[\"traceEvents\"][xs[6]][sys.argv[2]]
json.dump(d, open(sys.argv[3], \"w\"))
print(xs[6] + 1)" "$TRACE" "$key" "$TMP/no-$key.json" >"$TMP/no-$key.n" &&
		test_bad_ingest "$TMP/lost.db" "$TMP/no-$key.json" "event $(cat "$TMP/no-$key.n") of traceEvents: a complete (\"ph\": \"X\") event without \"$key\""
	'
done

# nvidia-smi killed while writing, py-spy/perf collapsed stacks cut: the
# file ends inside its last line's value ("…, 3" of "…, 37"), which was
# read; refused, as every format but TensorBoard refuses a cut file
test_expect_success SQLITE3 'nvidia-smi log cut inside its last value: refused on that line, store unchanged' '
	f="$DATA/gpu-batch-sweep/nvidia-smi.csv" &&
	head -c -2 "$f" >"$TMP/cut.csv" &&
	test_bad_ingest "$TMP/lost.db" "$TMP/cut.csv" "cut.csv: line $(wc -l <"$f"): the last line has no end (truncated file?)"
'
test_expect_success SQLITE3 'collapsed stacks cut inside the last count: refused on that line, store unchanged' '
	f="$DATA/pyspy/perf-collapsed.txt" &&
	head -c -2 "$f" >"$TMP/cut-collapsed.txt" &&
	test_bad_ingest "$TMP/lost.db" "$TMP/cut-collapsed.txt" "cut-collapsed.txt: line $(wc -l <"$f"): the last line has no end (truncated file?)"
'

# CSV exports pandas writes (itwinai's download-mlflow-data, its
# torch_profiling_averages.csv) cut inside the last value: refused, not
# read with the digits it lost (a timestamp of 1975)
test_expect_success SQLITE3 'points CSV cut inside its last timestamp: refused on that line, store unchanged' '
	printf "run_id,metric_name,value,step,timestamp\nabc,loss,0.5,0,1795347936041\nabc,loss,0.25,1,1795347937203\n" |
		head -c -3 >"$TMP/points-cut.csv" &&
	test_bad_ingest "$TMP/lost.db" "$TMP/points-cut.csv" "points-cut.csv: line 3: the last line has no end (truncated file?)"
'
test_expect_success SQLITE3 'torch_profiling_averages.csv cut inside its last value: refused on that line, store unchanged' '
	f=$(ls "$DATA"/itwinai-layout/mllogs/mlflow/*/*/artifacts/torch_profiling_averages/torch_profiling_averages.csv | head -1) &&
	head -c -2 "$f" >"$TMP/torch_profiling_averages.csv" &&
	test_bad_ingest "$TMP/lost.db" "$TMP/torch_profiling_averages.csv" "torch_profiling_averages.csv: line $(wc -l <"$f"): the last line has no end (truncated file?)"
'

test_done
