#!/bin/bash
# torch key_averages().table() text from public repositories (CPU-only
# columns; CUDA and memory columns with a header wider than its column):
# every row's operator (CPU) and op_device (CUDA) region against the
# table read another way (tests/oracle/regions_oracle.py keyavg: cells
# by the rule's spans); bad tables (truncated, a time without a unit, a
# header without # of Calls) fail with the line, exit 2, store unchanged.
test_description='key_averages tables: regions equal the table, bad tables leave the store unchanged'
. "$(dirname "$0")/../test-lib.sh"
P="$PUBLIC/keyavg"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"
CPU="$P/autoparallel-cpu-only.keyavg.txt"
CUDA="$P/gfnongnn-cuda-mem.keyavg.txt"
check() {
	"$AMDAHL" --store "$S" regions "$1" -n 0 --json >"$TMP/r.json"
	test_eq ok "$("$PY" "$ORACLE" keyavg "$1" "$TMP/r.json" 2>&1)"
}

test_expect_success SHARED 'setup: ingest both tables (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$P"
'
test_expect_success SHARED,SQLITE3 'detected by content as torch-key-averages' '
	test_eq "2" "$(q "$S" "SELECT count(*) FROM source WHERE kind='\''torch-key-averages'\''")"
'
test_expect_success SHARED,PYTHON 'CPU columns: every row equals the table' '
	check "$CPU"
	test_eq "164000 224000 1" "$(json_get "$TMP/r.json" "\" \".join(str(r[k]) for r in d[\"regions\"] if r[\"name\"]==\"model_inference\" for k in (\"self_ns\",\"total_ns\",\"calls\"))")"
'
test_expect_success SHARED,PYTHON 'CUDA and memory columns: op and op_device regions equal the table' '
	check "$CUDA"
	test_eq 8493466 "$(json_get "$TMP/r.json" "[r[\"bytes\"] for r in d[\"regions\"] if r[\"name\"]==\"autograd::engine::evaluate_function: AddmmBackward0\" and r[\"kind\"]==\"op_device\"][0]")"
'
test_expect_success SHARED 'a truncated table: its line, exit 2, store unchanged' '
	before=$(store_digest "$S")
	head -c 1500 "$CUDA" >"$TMP/cut.txt"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/cut.txt"
	test_contains "cut.txt: line 6: fewer cells than the header" "$ERR" # 5 whole lines in 1500 bytes
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success SHARED 'a time without a unit, a header without # of Calls: exit 2, store unchanged' '
	before=$(store_digest "$S")
	sed "5s/5.000us/5.000/" "$CPU" >"$TMP/nounit.txt"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/nounit.txt"
	test_contains "nounit.txt: line 5: Self CPU '\''5.000'\'' is not a time in us, ms or s" "$ERR"
	sed "2s/# of Calls/  of Calls/" "$CPU" >"$TMP/nocalls.txt"
	test_status 2 "$AMDAHL" --store "$S" ingest --format torch-key-averages "$TMP/nocalls.txt"
	test_contains "nocalls.txt: a key_averages header without" "$ERR"
	test_eq "$before" "$(store_digest "$S")"
'
test_done
