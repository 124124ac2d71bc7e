#!/bin/bash
# trace.sh — PyTorch profiler traces: every real trace in testdata/
# (8-rank CPU DDP over gloo, H100 CUDA) ingested and compared, to the
# nanosecond, with tests/oracle/trace_oracle.py's independent reading;
# linking to runs, rank sources, `trace show`, and bad input.
test_description='PyTorch profiler traces against the oracle, trace show, bad input'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/oracle/trace_dump.sh"
DB="$TMP/a.db"
CPU="$DATA/cpu-strong-scaling/mlruns"
GPU="$DATA/gpu-batch-sweep/mlruns"
RUN=05cf34910a624beb8c790ed12d3403cf # the 8-rank DDP run

# oracle FILE — the oracle's reading of a trace file (as dump_trace prints a stored one)
oracle() { "$PY" "$AMDAHL_ROOT/tests/oracle/trace_oracle.py" "$@"; }
# oracle_top_op FILE — the op with the most self time, by the oracle
# (leaving out the whole-trace and GPU annotation rows)
oracle_top_op() {
	oracle "$1" | awk -F'\t' '/^op /{split($3,a," "); if ($2!="Trace" && $2!="gpu_user_annotation") print a[3] "\t" substr($1,4)}' |
		sort -k1,1nr | head -1 | cut -f2
}
# refused FILE WHAT WHERE — ingesting $TMP/FILE fails with exit 2 and one
# line saying WHAT and naming the file and WHERE, the store unchanged
refused() {
	local before
	before=$(store_digest "$DB")
	test_status 2 "$AMDAHL" --store "$DB" ingest "$TMP/$1"
	test_contains "$2" "$ERR"
	test_contains "$TMP/$1: $3" "$ERR"
	test_eq 1 "$(printf '%s\n' "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$DB")"
}

test_expect_success 'setup: ingest the CPU and GPU sweeps with their traces (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" ingest -j 2 "$CPU" "$GPU"
'
test_expect_success SQLITE3 'one stored trace per trace file' '
	test_eq "$(find "$CPU" "$GPU" -name "*.pt.trace.json.gz" | wc -l)" "$(q "$DB" "SELECT count(*) FROM trace")"
'
# every trace: all stored numbers equal the oracle's
test_expect_success SQLITE3 'every trace: window, phases, steps, ops (count/total/self/min/max), collectives equal the oracle' '
	bad=0
	for f in $(find "$CPU" "$GPU" -name "*.pt.trace.json.gz" | sort); do
		dump_trace "$DB" "$f" >"$TMP/store.txt"
		oracle "$f" >"$TMP/oracle.txt"
		test_true "stored summary of $(basename "$f") equals the oracle'\''s" cmp -s "$TMP/store.txt" "$TMP/oracle.txt" || {
			bad=$((bad + 1))
			diff "$TMP/store.txt" "$TMP/oracle.txt" | head -5 >&2
		}
	done
	test_eq 0 "$bad"
'
# self time leaves out every event nested in an op on its thread, runtime
# calls included: the host ops' self times never add up to more than the
# threads' busy time (thread_busy.py: the union of each thread's events)
HOST_SELF="SELECT coalesce(sum(o.self_ns), 0) FROM region o JOIN region_detail d ON d.region_id=o.id LEFT JOIN dict c ON c.id=d.category_id JOIN trace t ON t.source_id=o.source_id AND t.rank IS o.rank JOIN source s ON s.id=t.source_id WHERE lower(coalesce(c.s, '')) NOT IN ('kernel', 'gpu_memcpy', 'gpu_memset', 'memcpy', 'memset', 'gpu_user_annotation', 'ac2g', 'trace') AND s.path="
test_expect_success SQLITE3,PYTHON 'every trace: host ops'\'' self times sum to at most the threads'\'' busy time' '
	bad=0
	for f in $(find "$CPU" "$GPU" -name "*.pt.trace.json.gz" | sort); do
		self=$(q "$DB" "$HOST_SELF'\''$f'\''")
		busy=$("$PY" "$AMDAHL_ROOT/tests/oracle/thread_busy.py" "$f")
		test_true "$(basename "$f"): self $self <= busy $busy" test "$self" -le "$busy" || bad=$((bad + 1))
	done
	test_eq 0 "$bad"
'

# the 8-rank DDP run: linked, one trace per rank, world size and backend
test_expect_success SQLITE3 '8-rank run: ranks 0..7 linked to the run' '
	test_eq "0 1 2 3 4 5 6 7" \
		"$(q "$DB" "SELECT group_concat(rank, '\'' '\'') FROM (SELECT t.rank FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='\''$RUN'\'' ORDER BY t.rank)")"
'
test_expect_success SQLITE3 '8-rank run: world size 8, gloo, CPU-only' '
	test_eq "8|gloo|0|cpu" \
		"$(q "$DB" "SELECT DISTINCT world_size, backend, has_gpu, device FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='\''$RUN'\''")"
'
# absolute time: baseTimeNanoseconds + ts lands inside the run's MLflow start/end (ms)
test_expect_success SQLITE3 "trace window lies within the MLflow run's start and end" '
	test_eq 1 \
		"$(q "$DB" "SELECT t.start_ns/1000000 >= r.start_ms AND t.end_ns/1000000 <= r.end_ms FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='\''$RUN'\'' AND t.rank=0")"
'
test_expect_success SQLITE3 'steps of rank 0 are ProfilerStep#2..#4' '
	test_eq "2 3 4" \
		"$(q "$DB" "SELECT group_concat(step, '\'' '\'') FROM trace_step s JOIN trace t ON t.id=s.trace_id JOIN run r ON r.id=t.run_id WHERE r.ext_id='\''$RUN'\'' AND t.rank=0")"
'
test_expect_success SQLITE3 'GPU traces carry the H100 and CUDA kernel time' '
	test_eq "$(find "$GPU" -name "*.pt.trace.json.gz" | wc -l)|NVIDIA H100 80GB HBM3" \
		"$(q "$DB" "SELECT count(*), min(device) FROM trace WHERE has_gpu=1 AND (SELECT ns FROM trace_phase p JOIN dict d ON d.id=p.phase_id WHERE p.trace_id=trace.id AND d.s='\''compute'\'') > 0")"
'

# trace show
test_expect_success 'trace show by run id: rank 7 of 8, the step list' '
	test_status 0 "$AMDAHL" --store "$DB" trace show "$RUN"
	test_contains "rank 7 of 8: gloo, cpu" "$OUT"
	test_contains "steps: #2 " "$OUT"
'
test_expect_success SQLITE3 "trace show --rank 3 --json -n 4: one trace, rank 3, 4 ops, exact ns; the top op by self time is the oracle's" '
	test_status 0 "$AMDAHL" --store "$DB" trace show "$RUN" --rank 3 --json -n 4
	test_eq "$(q "$DB" "SELECT '\''1 3 4 '\'' || (SELECT ns FROM trace_phase p JOIN dict d ON d.id=p.phase_id WHERE p.trace_id=t.id AND d.s='\''compute'\'') || '\'' '\'' || t.start_ns FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='\''$RUN'\'' AND t.rank=3")" \
		"$(json_get "$TMP/out" "(lambda t: \" \".join(str(x) for x in (len(t), t[0][\"rank\"], len(t[0][\"top_ops\"]), t[0][\"phases_ns\"][\"compute\"], t[0][\"start_ns\"])))(d[\"traces\"])")"
	test_eq "$(oracle_top_op "$(ls "$CPU"/4/$RUN/artifacts/traces/rank3.*)")" \
		"$(json_get "$TMP/out" "d[\"traces\"][0][\"top_ops\"][0][\"name\"]")"
'
test_expect_success 'trace show by run name: the launch of ddp-n8 that has traces' '
	test_status 0 "$AMDAHL" --store "$DB" trace show ddp-n8
	test_contains "($RUN): 8 traces" "$OUT"
'
test_expect_success 'trace show: an unknown run exits 2 and says so' '
	test_status 2 "$AMDAHL" --store "$DB" trace show no-such-run
	test_contains "no run named" "$ERR"
'
test_expect_success 'trace show --help exits 0' '
	test_status 0 "$AMDAHL" trace --help
'

# idempotent
test_expect_success 'ingesting again adds nothing' '
	test_status 0 "$AMDAHL" --store "$DB" ingest "$CPU"
	test_contains "0 added, 0 replaced" "$OUT"
'

# rank from the file name, else --rank; no distributedInfo
D2="$TMP/b.db"
F0=$(ls "$CPU"/4/$RUN/artifacts/traces/rank0.*)
test_expect_success 'setup: ingest traces without distributedInfo named worker_3.*, *_rank5.*, and one with no rank anywhere with --rank 6' '
	"$PY" "$AMDAHL_ROOT/tests/lib/trace_without_rank.py" "$F0" "$TMP" \
		worker_3.123.pt.trace.json job_rank5.pt.trace.json plain.pt.trace.json
	test_status 0 "$AMDAHL" --store "$D2" ingest "$TMP/worker_3.123.pt.trace.json"
	test_status 0 "$AMDAHL" --store "$D2" ingest "$TMP/job_rank5.pt.trace.json"
	test_status 0 "$AMDAHL" --store "$D2" ingest --rank 6 "$TMP/plain.pt.trace.json"
'
test_expect_success SQLITE3 'ranks from worker_3, _rank5 and --rank 6; world size unknown' '
	test_eq "3||5||6|" \
		"$(q "$D2" "SELECT group_concat(rank || '\''|'\'' || coalesce(world_size,'\'''\''), '\''|'\'') FROM (SELECT * FROM trace ORDER BY rank)")"
'
test_expect_success SQLITE3 'uncompressed .json reads the same as its .json.gz' '
	dump_trace "$D2" "$TMP/plain.pt.trace.json" | grep -v "^trace" >"$TMP/s.txt"
	oracle "$F0" | grep -v "^trace" >"$TMP/o.txt"
	test_eq "" "$(diff "$TMP/s.txt" "$TMP/o.txt" | head -3)"
'

# bad input: one line naming the file and byte offset, exit 2, store unchanged
size= # the length of rank 0's trace, uncompressed (set by the setup)
test_expect_success 'setup: bad traces: cut in half (JSON and gzip), no traceEvents, empty, a ts that is no number' '
	zcat "$F0" >"$TMP/full.json" &&
	size=$(stat -c %s "$TMP/full.json") &&
	head -c $((size / 2)) "$TMP/full.json" >"$TMP/cut.pt.trace.json" &&
	gz=$(stat -c %s "$F0") &&
	head -c $((gz / 2)) "$F0" >"$TMP/cut.pt.trace.json.gz" &&
	printf "{\"schemaVersion\": 1, \"deviceProperties\": [], \"displayTimeUnit\": \"ms\"}\n" >"$TMP/noevents.pt.trace.json" &&
	: >"$TMP/empty.pt.trace.json" &&
	printf "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": \"soon\", \"dur\": 1}]}" >"$TMP/badts.pt.trace.json"
'
test_expect_success SQLITE3 'JSON cut in half: exit 2, one line, "truncated JSON" at the byte where it ends, store unchanged' '
	refused cut.pt.trace.json "truncated JSON" "byte $((size / 2))"
'
test_expect_success SQLITE3 'gzip cut in half: exit 2, one line, "truncated gzip" at a byte, store unchanged' '
	refused cut.pt.trace.json.gz "truncated gzip" "byte "
'
test_expect_success SQLITE3 'no traceEvents: exit 2, one line saying so at a byte, store unchanged' '
	refused noevents.pt.trace.json "no traceEvents" "byte "
'
test_expect_success SQLITE3 'an empty file: exit 2, one line saying so at byte 0, store unchanged' '
	refused empty.pt.trace.json "empty file" "byte 0"
'
test_expect_success SQLITE3 'a ts that is no number: exit 2, one line saying so at a byte, store unchanged' '
	refused badts.pt.trace.json "not a number of microseconds" "byte "
'

# Chrome traces that are not plain Kineto files: a Kineto trace wrapped
# with a large "metadata" key first (read whole, the same numbers as the
# oracle's), and a TensorFlow profiler trace (refused, named)
VARIANTS="$AMDAHL_ROOT/tests/lib/trace_variants.py"
TF="tf/artifacts/plugins/profile/2026_11_22_11_40_00/host.trace.json.gz"
test_expect_success PYTHON 'setup: a wrapped Kineto trace and a TensorFlow trace' '
	G0=$(find "$GPU" -name "*.pt.trace.json.gz" | sort | head -1) &&
	mkdir -p "$TMP/wrapped" "$TMP/$(dirname "$TF")" &&
	"$PY" "$VARIANTS" wrapped "$G0" "$TMP/wrapped/trace.json" &&
	"$PY" "$VARIANTS" tf "$G0" "$TMP/$TF"
'
test_expect_success 'wrapped trace: neither traceEvents nor a Kineto key in its first 4 KiB' '
	test_eq 0 "$(head -c 4096 "$TMP/wrapped/trace.json" | grep -c -e traceEvents -e schemaVersion -e deviceProperties)"
'
test_expect_success SQLITE3 'wrapped trace: detected as a PyTorch trace, every stored number equal to the oracle'\''s' '
	test_status 0 "$AMDAHL" --store "$TMP/w.db" ingest "$TMP/wrapped" &&
	test_eq torch-trace "$(q "$TMP/w.db" "SELECT kind FROM source")" &&
	dump_trace "$TMP/w.db" "$TMP/wrapped/trace.json" >"$TMP/store.txt" &&
	oracle "$TMP/wrapped/trace.json" >"$TMP/oracle.txt" &&
	test_eq "$(cat "$TMP/oracle.txt")" "$(cat "$TMP/store.txt")"
'
test_expect_success SQLITE3 'a TensorFlow profiler trace: exit 2, one line naming it "a Chrome trace from another profiler", store unchanged' '
	refused "$TF" "a Chrome trace from another profiler" ""
'

# traces of an accelerator with no kernel events are not "device cpu":
# a CUPTI range-profiler session names the GPU of deviceProperties, an
# MTIA trace (no deviceProperties) names no device
GPU_NAME='import gzip, json, sys; print(json.load(gzip.open(sys.argv[1]))["deviceProperties"][0]["name"])'
test_expect_success PYTHON,SQLITE3 'range-profiler and MTIA traces: not shown as device cpu' '
	G0=$(find "$GPU" -name "*.pt.trace.json.gz" | sort | head -1) &&
	"$PY" "$VARIANTS" range "$G0" "$TMP/range.pt.trace.json" &&
	"$PY" "$VARIANTS" mtia "$G0" "$TMP/mtia.pt.trace.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/acc.db" ingest "$TMP/range.pt.trace.json" "$TMP/mtia.pt.trace.json" &&
	test_eq "$("$PY" -c "$GPU_NAME" "$G0")|0" \
		"$(q "$TMP/acc.db" "SELECT device, has_gpu FROM trace JOIN source s ON s.id=source_id WHERE s.path LIKE '\''%range%'\''")" &&
	test_eq "|0" "$(q "$TMP/acc.db" "SELECT device, has_gpu FROM trace JOIN source s ON s.id=source_id WHERE s.path LIKE '\''%mtia%'\''")"
'

# a window under a microsecond: durations to the nanosecond, never
# "0.000 ms" beside a share
test_expect_success 'a sub-microsecond trace: trace show prints ms to the nanosecond' '
	printf "%s" "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 100.0, \"dur\": 0.4}, {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"pid\": 1, \"tid\": 1, \"ts\": 100.5, \"dur\": 0.1}]}" >"$TMP/sub.pt.trace.json" &&
	"$AMDAHL" --store "$TMP/sub.db" ingest --sweep sub --run sub "$TMP/sub.pt.trace.json" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/sub.db" trace show sub &&
	test_contains "window 0.000600 ms" "$OUT" &&
	test_contains "compute        0.000500      83.3%" "$OUT" &&
	test_contains "aten::add  cpu_op      1  0.000400" "$OUT"
'

# itwinai's layout: profiler-traces/<run name>/torch-traces/worker_<rank>.*
test_expect_success SQLITE3 'an itwinai torch-traces folder: linked to the run named in its folder, rank from worker_3' '
	mkdir -p "$TMP/itw/profiler-traces/ddp-n8/torch-traces" &&
	cp "$TMP/worker_3.123.pt.trace.json" "$TMP/itw/profiler-traces/ddp-n8/torch-traces/worker_3.1795347937.pt.trace.json" &&
	test_status 0 "$AMDAHL" --store "$DB" ingest "$TMP/itw"
	test_eq "ddp-n8|3" \
		"$(q "$DB" "SELECT r.name, t.rank FROM trace t JOIN run r ON r.id=t.run_id JOIN source s ON s.id=t.source_id WHERE s.path LIKE '\''%torch-traces%'\''")"
'

# a sweep of cut points through a real trace: each is refused cleanly
# (exit 2, the file and a byte offset), never a crash, store unchanged
test_expect_success SQLITE3 '12 cut points through a real trace: exit 2 with the file and a byte offset each time, store unchanged' '
	before=$(store_digest "$DB") bad=0
	for frac in 1 3 7 13 29 41 53 67 79 89 97 99; do
		head -c $((size * frac / 100)) "$TMP/full.json" >"$TMP/cut$frac.pt.trace.json"
		test_status 2 "$AMDAHL" --store "$DB" ingest "$TMP/cut$frac.pt.trace.json" &&
			test_true "cut at $frac%: names the file and a byte offset: $ERR" \
				grep -q "cut$frac.pt.trace.json: byte [0-9]" "$TMP/err" ||
			bad=$((bad + 1))
	done
	test_eq 0 "$bad"
	test_eq "$before" "$(store_digest "$DB")"
'

# the engine reads a trace on a second thread while it hashes the file
# (engine_overlap.c, as every format's parse), and past 8,192 events aggregates it on a third
# (trace_pipe.c: every H100 trace of gpu-batch-sweep is past it);
# AMDAHL_OVERLAP=0 reads it after the hash and aggregates each event as it
# is read, on one thread: both stores hold the same rows (ingest and migration times aside;
# they are zeroed in a copy of each store: on ClickHouse, the copy pull
# makes, which leaves out trace_event, counted on the server instead)
test_expect_success SQLITE3 'the trace read while the file is hashed stores what the one-thread path stores (--events, every testdata trace)' '
	AMDAHL_OVERLAP=0 "$AMDAHL" --store "$TMP/one.db" ingest --events "$CPU" "$GPU" >/dev/null 2>&1 &&
	"$AMDAHL" --store "$TMP/two.db" ingest --events "$CPU" "$GPU" >/dev/null 2>&1 &&
	test_true "events stored" test "$("$AMDAHL" --store "$TMP/two.db" sql "SELECT count(*) FROM trace_event" | tail -1)" -gt 1000 &&
	test_eq "$("$AMDAHL" --store "$TMP/one.db" sql "SELECT count(*) FROM trace_event")" \
		"$("$AMDAHL" --store "$TMP/two.db" sql "SELECT count(*) FROM trace_event")" &&
	for d in one two; do
		cp "$(_test_store_file "$TMP/$d.db")" "$TMP/$d.copy" &&
		sqlite3 "$TMP/$d.copy" "UPDATE source SET ingested_at = 0; UPDATE schema_version SET applied_at = 0" || return 1
	done &&
	test_eq "$(sqlite3 "$TMP/one.copy" .dump | sha256sum)" "$(sqlite3 "$TMP/two.copy" .dump | sha256sum)" &&
	"$AMDAHL" --store "$TMP/two.db" ingest --events "$GPU" >"$TMP/again" 2>&1 &&
	test_contains "0 added, 0 replaced, 32 unchanged, 0 failed" "$(cat "$TMP/again")"
'

# issue 40 item 9: a thread's innermost-op steps beyond a few blocks go
# to a temporary file; AMDAHL_TRACE_SPILL=3 makes that start at the second
# block of 3 steps (one block in memory, one cached), so every trace's
# self times are charged through the file
test_expect_success SQLITE3 'steps spilled to a temporary file from the first block: every stored trace the same as in memory' '
	test_status 0 env AMDAHL_TRACE_SPILL=3 "$AMDAHL" --store "$TMP/spill.db" ingest -j 2 "$CPU" "$GPU" &&
	bad=0 &&
	for f in $(find "$CPU" "$GPU" -name "*.pt.trace.json.gz" | sort); do
		dump_trace "$DB" "$f" >"$TMP/mem.txt"
		dump_trace "$TMP/spill.db" "$f" >"$TMP/spilled.txt"
		test_true "$(basename "$f"): self times charged through the file" cmp -s "$TMP/mem.txt" "$TMP/spilled.txt" || bad=$((bad + 1))
	done &&
	test_eq 0 "$bad"
'
test_expect_success 'the steps'\'' temporary file cannot be created: exit 2, one line naming the file and TMPDIR, no store' '
	f=$(ls "$GPU"/*/*/artifacts/traces/*.pt.trace.json.gz | head -1) &&
	test_status 2 env TMPDIR="$TMP/none" AMDAHL_TRACE_SPILL=3 "$AMDAHL" --store "$TMP/nospill.db" ingest "$f" &&
	test_contains "$f: cannot create the temporary file in $TMP/none that holds a thread'\''s innermost-op steps: No such file or directory" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_path_is_missing "$TMP/nospill.db"
'

test_done
