#!/bin/bash
# AMD GPU memory on the public MI300X trace (TraceLens, ROCm): PyTorch
# logs its [memory] events with Device Type 6 (HIP in torch's DeviceType
# enum), which is GPU memory like CUDA's 1. trace show names the device
# "hip", and a sweep's peak memory is per GPU, the AMD run's peak the one
# python's json finds (tests/oracle/memtrace_oracle.py), whether or not
# an NVIDIA trace is in the sweep too (issue 36).
test_description='AMD MI300X memory: Device Type 6 is GPU memory (trace show, stats --json)'
. "$(dirname "$0")/../test-lib.sh"

M="$PUBLIC/memtraces"
AMD="$M/tracelens-mi300-qwen0.5b-mem.json.gz"
NV="$M/tracelens-h100-falconsai-mem.json.gz"
S="$TMP/s.db"
A="$TMP/a.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/memtrace_oracle.py"
run_id() { q "$1" "SELECT ext_id FROM run WHERE name='$2' AND repeat=1"; }
# PEAK_ALLOCATED of the oracle's rows of device type $2 in trace $1
peak() { "$PY" "$ORACLE" "$1" | awk -F"|" -v t="$2" '$1 == t { print $4 }'; }
PT='[p for p in sweep()["memory"]["points"] if p["strategy"] == "ddp" and p["n"] == %s][0]["peak_allocated"]["median"]'

test_expect_success SHARED 'setup: the CPU sweep; the MI300X trace linked to ddp-n2, the H100 trace to ddp-n1; a store of the MI300X trace alone' '
	"$AMDAHL" --store "$S" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$(run_id "$S" ddp-n2)" "$AMD" &&
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$(run_id "$S" ddp-n1)" "$NV" &&
	"$AMDAHL" --store "$A" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$A" ingest --run "$(run_id "$A" ddp-n2)" "$AMD"
'
test_expect_success SHARED,PYTHON 'trace show --json: the MI300X devices are cpu and hip, peaks equal python json' '
	"$AMDAHL" --store "$S" trace show ddp-n2 --json >"$TMP/t.json" &&
	test_eq "$("$PY" "$ORACLE" "$AMD" | cut -d"|" -f1-4 | sed "s/^0|/cpu|/; s/^6|/hip|/")" \
		"$(json_get "$TMP/t.json" "\"\\n\".join(\"%s|%d|%d|%d\" % (m[\"device_type\"], m[\"device_id\"], m[\"from_totals\"], m[\"peak_allocated\"]) for m in d[\"traces\"][0][\"memory\"])")"
'
test_expect_success SHARED 'trace show: a line for hip:0' '
	"$AMDAHL" --store "$S" trace show ddp-n2 >"$TMP/t.txt" &&
	test_contains "peak memory hip:0: allocated " "$(cat "$TMP/t.txt")"
'
test_expect_success SHARED,PYTHON 'stats --json with an AMD and an NVIDIA trace: per GPU, the MI300X run'"'"'s peak is its HIP device'"'"'s' '
	"$AMDAHL" --store "$S" stats --json >"$TMP/s.json" &&
	test_eq "GPU" "$(json_get "$TMP/s.json" "sweep()[\"memory\"][\"per\"]")" &&
	test_eq "$(peak "$AMD" 6)|$(peak "$NV" 1)" "$(json_get "$TMP/s.json" "\"%d|%d\" % ($(printf "$PT" 2), $(printf "$PT" 1))")"
'
test_expect_success SHARED,PYTHON 'stats --json with the AMD trace alone: per GPU (not CPU memory), the HIP peak' '
	"$AMDAHL" --store "$A" stats --json >"$TMP/a.json" &&
	test_eq "GPU|$(peak "$AMD" 6)" "$(json_get "$TMP/a.json" "\"%s|%d\" % (sweep()[\"memory\"][\"per\"], $(printf "$PT" 2))")"
'
test_done
