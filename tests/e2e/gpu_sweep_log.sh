#!/bin/bash
# gpu_sweep_log.sh — one nvidia-smi log for a whole sweep (issue 13, item
# 7): the H100 sweep with its runs' own GPU metrics removed and its
# nvidia-smi.csv ingested unlinked; stats takes each run's energy, power
# and utilisation from the samples in its start..end window, checked run
# by run against tests/oracle/nvsmi_run_figures.py, and names the source.
test_description='a sweep-wide nvidia-smi log attributed to runs by time, against the oracle'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
SW="$TMP/gpu-batch-sweep"
ORACLE="$AMDAHL_ROOT/tests/oracle/nvsmi_run_figures.py"
RUN_FIGURES='"\n".join(sorted("%s %.6f %.6f %.6f" % (r["id"], r["energy_run_j"], r["power_w"], r["util_pct"]) for s in d["sweeps"][0]["strategies"] for p in s["points"] for r in p["run_values"]))'

test_expect_success 'setup: the GPU sweep without its logged GPU metrics, and its nvidia-smi log, ingested (exit 0)' '
	cp -r "$DATA/gpu-batch-sweep" "$TMP/" &&
	find "$SW" -path "*/metrics/gpu_*" -delete &&
	test_eq 0 "$(find "$SW" -path "*/metrics/gpu_*" | wc -l)" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$SW" &&
	test_status 0 "$AMDAHL" --store "$S" stats --json &&
	printf "%s\n" "$OUT" >"$TMP/stats.json"
'
test_expect_success SQLITE3 'the log is linked to no run' '
	test_eq 0 "$(q "$S" "SELECT count(run_id) FROM gpu_sample")"
'
test_expect_success PYTHON 'every run takes its GPU figures from the log' '
	test_eq "$("$PY" "$ORACLE" "$SW/mlruns" "$SW/nvidia-smi.csv" | wc -l)" \
		"$(json_get "$TMP/stats.json" "d[\"sweeps\"][0][\"runs_gpu_from_nvidia_smi\"]")"
'
test_expect_success PYTHON 'each run: energy (trapezoid, summed over GPUs), mean power and utilisation = oracle' '
	test_eq "$("$PY" "$ORACLE" "$SW/mlruns" "$SW/nvidia-smi.csv")" "$(json_get "$TMP/stats.json" "$RUN_FIGURES")"
'
test_expect_success 'stats names the source of the GPU figures' '
	test_status 0 "$AMDAHL" --store "$S" stats &&
	test_contains "runs that logged none: nvidia-smi samples linked to them or in their start..end" "$OUT"
'
test_expect_success PDFTOTEXT 'the report names nvidia-smi under the energy and utilisation charts' '
	test_status 0 "$AMDAHL" --store "$S" report build -o "$TMP/report" &&
	pdftotext "$TMP/report/report.pdf" "$TMP/report.txt" &&
	test_contains "from nvidia-smi samples" "$(tr "\n" " " <"$TMP/report.txt")"
'
test_expect_success PYTHON 'a sweep whose runs logged their GPU metrics keeps them (no run from the log)' '
	"$AMDAHL" --store "$TMP/l.db" ingest "$DATA/gpu-batch-sweep" >/dev/null &&
	"$AMDAHL" --store "$TMP/l.db" stats --json >"$TMP/l.json" &&
	test_eq 0 "$(json_get "$TMP/l.json" "d[\"sweeps\"][0][\"runs_gpu_from_nvidia_smi\"]")"
'
test_expect_success PYTHON 'two GPUs in the log, runs naming theirs in CUDA_VISIBLE_DEVICES: each run takes its own GPU (oracle), others both' '
	cp -r "$SW" "$TMP/two" && rm -f "$TMP/two/nvidia-smi.csv" &&
	awk -F", " -v OFS=", " "NR == 1 { print; next } { print; \$2 = 1; \$6 = sprintf(\"%.2f W\", \$6 * 0.5 + 10); \$4 = \"7 %\"; print }" \
		"$SW/nvidia-smi.csv" >"$TMP/two/nvidia-smi.csv" &&
	test_eq 2 "$(cut -d, -f2 "$TMP/two/nvidia-smi.csv" | sed 1d | sort -u | wc -l)" &&
	i=0 && for d in "$TMP"/two/mlruns/*/*/params; do
		case $((i % 3)) in 0) printf 1 >"$d/CUDA_VISIBLE_DEVICES" ;; 1) printf "0, 1" >"$d/CUDA_VISIBLE_DEVICES" ;; esac
		i=$((i + 1))
	done &&
	test_status 0 "$AMDAHL" --store "$TMP/two.db" ingest -q "$TMP/two" &&
	test_status 0 "$AMDAHL" --store "$TMP/two.db" stats --json &&
	test_eq "$("$PY" "$ORACLE" "$TMP/two/mlruns" "$TMP/two/nvidia-smi.csv")" "$(json_get "$TMP/out" "$RUN_FIGURES")" &&
	test_true "the GPU-1-only runs differ from the all-GPU figures" test "$("$PY" "$ORACLE" "$TMP/two/mlruns" "$TMP/two/nvidia-smi.csv")" != "$("$PY" "$ORACLE" "$SW/mlruns" "$TMP/two/nvidia-smi.csv")"
'
test_done
