# traces.sh — every public PyTorch profiler trace (HTA's test traces:
# NCCL, gloo CPU-only, AMD MI250, no rank, rank 0 of 16; param's 8 DLRM
# ranks) ingested; rank, world size and event count, and then every
# stored number, against tests/oracle/trace_oracle.py.
test_description='every public PyTorch profiler trace against the trace oracle'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/oracle/trace_dump.sh"

ORACLE="$AMDAHL_ROOT/tests/oracle/trace_oracle.py"
DB="$TMP/c.db"
DIR="$PUBLIC/traces"
files=$(find "$DIR" -name '*.json.gz' 2>/dev/null | sort)

DLRM_RANKS="SELECT group_concat(rank, ' ') || '|' || max(world_size) || '|' || max(backend) FROM (SELECT t.* FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%param-dlrm-8ranks%' ORDER BY rank)"
GLOO_RANK="SELECT rank, world_size, has_gpu FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%cpu-only-gloo%'"
NO_RANK="SELECT rank FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%rank-not-found%'"

test_expect_success SHARED 'setup: ingest every public trace (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" ingest "$DIR"
'
test_expect_success SHARED,SQLITE3 'one trace per file' '
	test_eq "$(printf "%s\n" "$files" | wc -l)" "$(q "$DB" "SELECT count(*) FROM trace")"
'
for f in $files; do
	test_expect_success SHARED,SQLITE3,PYTHON "$(basename "$f"): rank, world size and events, then every stored number, equal the oracle's" '
		"$PY" "$ORACLE" "$f" >"$TMP/o.txt" &&
		dump_trace "$DB" "$(realpath "$f")" >"$TMP/s.txt" &&
		read -r _ orank oworld oevents _ <"$TMP/o.txt"
		test_eq "$orank $oworld $oevents" "$(head -1 "$TMP/s.txt" | cut -d" " -f2-4)"
		test_eq "" "$(diff "$TMP/s.txt" "$TMP/o.txt" | head -5)"
	'
done
test_expect_success SHARED,SQLITE3 'param DLRM: ranks 0..7 of 8 over nccl' '
	test_eq "0 1 2 3 4 5 6 7|8|nccl" "$(q "$DB" "$DLRM_RANKS")"
'
test_expect_success SHARED,SQLITE3 'gloo CPU-only trace: rank 34 of 300, no GPU' '
	test_eq "34|300|0" "$(q "$DB" "$GLOO_RANK")"
'
test_expect_success SHARED,SQLITE3 'the trace without a rank: stored with none' '
	test_eq "" "$(q "$DB" "$NO_RANK")"
'

# issue 13: a trace wrapped by a tool (TraceLens: "metadata" first,
# traceEvents at byte 26 k) and a torch 1.8 trace (2021 categories
# Operator/Runtime/Kernel) are detected as PyTorch traces and read whole
MEM="$PUBLIC/memtraces"
for f in tracelens-h100-falconsai-mem.json.gz kineto-resnet50-nw4-worker0.1623212756351.pt.trace.json.gz; do
	test_expect_success SHARED,SQLITE3,PYTHON "$f: a PyTorch trace, every stored number equal to the oracle's" '
		test_status 0 "$AMDAHL" --store "$TMP/m.db" ingest "$MEM/'"$f"'" &&
		test_eq torch-trace "$(q "$TMP/m.db" "SELECT kind FROM source WHERE path LIKE '\''%/'"$f"''\''")" &&
		"$PY" "$ORACLE" "$MEM/'"$f"'" >"$TMP/o.txt" &&
		dump_trace "$TMP/m.db" "$(realpath "$MEM/'"$f"'")" >"$TMP/s.txt" &&
		test_eq "" "$(diff "$TMP/s.txt" "$TMP/o.txt" | head -5)"
	'
done

test_done
