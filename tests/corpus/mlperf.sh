#!/bin/bash
# MLPerf logs on the public samples: Lambda's llama2_70b_lora raw result
# logs at 1, 2, 4 and 8 nodes of 8 H100s give a 4-point strong-scaling
# study (time to train per n, checked against python's json in
# tests/oracle/mllog_oracle.py) that stats, report build and gate read
# unchanged; Google's MLPerf v1.0 BERT result_0.txt (no event_type, no
# system description) is a run with its params and time to train.
# Issue 36: every log of the folder is read — Lambda's raw BERT log where
# 8 ranks log (the run is rank 0's, world size 8 from the ranks),
# Graphcore's v1.0 result (run_stop logged as INTERVAL_START) and AMD's
# v5.1 MI300X result (1xMI300X: 1 node, no world size, and stats says so).
test_description='MLPerf public logs: the Lambda 4-point strong-scaling study through stats, report and gate'
. "$(dirname "$0")/../test-lib.sh"

M="$PUBLIC/mllog"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/mllog_oracle.py"
SW=mlperf-llama2_70b_lora
# "n|median" of every point of the sweep's stats JSON
POINTS='"\n".join("%d|%.3f" % (p["n"], p["median"]) for p in d["sweeps"][0]["strategies"][0]["points"])'

BERT="$M/lambda-bert-1x8gpu.log"
GC="$M/mlperf1.0-graphcore-pod16-bert-result_0.txt"
AMD="$M/mlperf5.1-amd-mi300x-llama2_70b_lora-result_0.txt"
TTT_OF="SELECT printf('%s|%.3f', r.status, m.value) FROM metric_point m JOIN dict d ON d.id=m.key_id
 JOIN run r ON r.id=m.run_id JOIN source f ON f.id=r.source_id WHERE d.s='time_to_train_s' AND f.path LIKE"
test_expect_success SHARED 'setup: every public log of the folder ingests (exit 0), one run each' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$M" &&
	test_contains "$(ls "$M" | wc -l) added, 0 replaced, 0 unchanged, 0 failed" "$OUT"
'
test_expect_success SHARED,SQLITE3 'four Lambda runs at n = 8, 16, 32, 64 (nodes x 8 from :::SYSJSON), all FINISHED' '
	test_eq "8|1|3
16|2|3
32|4|3
64|8|3" "$(q "$S" "SELECT r.n, r.nodes, r.status FROM run r JOIN sweep s ON s.id=r.sweep_id WHERE s.name='"'"'$SW'"'"' AND r.n > 0 ORDER BY r.n")"
'
test_expect_success SHARED,PYTHON 'stats --metric time_to_train_s: a median per n equal to python json run_stop - run_start' '
	"$AMDAHL" --store "$S" stats --sweep $SW --metric time_to_train_s --json >"$TMP/ttt.json" &&
	test_eq "$("$PY" "$ORACLE" ttt "$M"/lambda-llama2_70b_lora-*.log)" "$(json_get "$TMP/ttt.json" "$POINTS")"
'
test_expect_success SHARED,PYTHON 'speedup at 64 GPUs is time to train at 8 over time at 64' '
	want=$("$PY" "$ORACLE" ttt "$M"/lambda-llama2_70b_lora-*.log | "$PY" -c "import sys; t = dict(l.strip().split(\"|\") for l in sys.stdin); print(\"%.6f\" % (float(t[\"8\"]) / float(t[\"64\"])))") &&
	test_eq "$want" "$(json_get "$TMP/ttt.json" "\"%.6f\" % d[\"sweeps\"][0][\"strategies\"][0][\"points\"][3][\"speedup\"]")"
'
test_expect_success SHARED,PYTHON 'default stats: per-block epoch time, block 0 (warm-up) dropped, medians equal python json' '
	"$AMDAHL" --store "$S" stats --sweep $SW --json >"$TMP/ep.json" &&
	for n in 1 2 4 8; do
		"$PY" "$ORACLE" blocks "$M/lambda-llama2_70b_lora-${n}x8gpu.log" |
		"$PY" -c "import sys, statistics; print(\"%d|%.3f\" % ($n * 8, statistics.median(float(l.split(\"|\")[1]) for l in sys.stdin if not l.startswith(\"0|\"))))"
	done >"$TMP/want.txt" &&
	test_eq "$(cat "$TMP/want.txt")" "$(json_get "$TMP/ep.json" "$POINTS")"
'
test_expect_success SHARED,PDFTOTEXT 'report build --metric time_to_train_s: a 4-point strong-scaling report' '
	test_status 0 "$AMDAHL" --store "$S" report build --sweep $SW --metric time_to_train_s -o "$TMP/rep" &&
	test_path_exists "$TMP/rep/report.pdf" &&
	test_eq "time_to_train_s 4" "$(json_get "$TMP/rep/report.json" "\"%s %d\" % (d[\"metric\"], len(d[\"strategies\"][0][\"points\"]))")" &&
	pdftotext "$TMP/rep/report.pdf" "$TMP/rep.txt" &&
	test_contains "time_to_train" "$(cat "$TMP/rep.txt")" &&
	test_contains "$SW" "$(cat "$TMP/rep.txt")"
'
test_expect_success SHARED 'gate of the study against itself: one run per side is insufficient data (exit 3), not a pass' '
	test_status 3 "$AMDAHL" --store "$S" gate --baseline $SW --candidate $SW --metric time_to_train_s
'
test_expect_success SHARED,SQLITE3 'the v1.0 BERT result: FINISHED, params, time to train from run_start/run_stop' '
	test_eq "bert-tpu-v4-128|3" "$(q "$S" "SELECT name, status FROM run WHERE name LIKE '"'"'bert-tpu%'"'"'")" &&
	test_eq "238.259" "$(q "$S" "SELECT printf('"'"'%.3f'"'"', value) FROM metric_point m JOIN dict d ON d.id=m.key_id JOIN run r ON r.id=m.run_id WHERE d.s='"'"'time_to_train_s'"'"' AND r.name LIKE '"'"'bert-tpu%'"'"'")" &&
	test_eq 3072 "$(q "$S" "SELECT value FROM param p JOIN dict d ON d.id=p.key_id JOIN run r ON r.id=p.run_id WHERE d.s='"'"'global_batch_size'"'"' AND r.name LIKE '"'"'bert-tpu%'"'"'")"
'
test_expect_success SHARED,SQLITE3,PYTHON 'Lambda BERT launcher log, 8 ranks: rank 0'"'"'s run, FINISHED, time to train and evals = python, n = 8 from the ranks' '
	test_eq "$("$PY" "$ORACLE" run "$BERT")" "$(q "$S" "$TTT_OF '"'"'%/lambda-bert-1x8gpu.log'"'"'" | sed "s/^3|/success|/")|8" &&
	test_eq "$("$PY" "$ORACLE" evals "$BERT")" "$(q "$S" "SELECT printf('"'"'%.9f %d'"'"', sum(value), count(*)) FROM metric_point m JOIN dict d ON d.id=m.key_id JOIN run r ON r.id=m.run_id JOIN source f ON f.id=r.source_id WHERE d.s='"'"'eval_accuracy'"'"' AND f.path LIKE '"'"'%/lambda-bert-1x8gpu.log'"'"'")" &&
	test_eq "8|1" "$(q "$S" "SELECT r.n, r.nodes FROM run r JOIN source f ON f.id=r.source_id WHERE f.path LIKE '"'"'%/lambda-bert-1x8gpu.log'"'"'")"
'
test_expect_success SHARED,SQLITE3,PYTHON 'Graphcore v1.0 (run_stop as INTERVAL_START): FINISHED, time to train = python' '
	test_eq "$("$PY" "$ORACLE" run "$GC")" "$(q "$S" "$TTT_OF '"'"'%/$(basename "$GC")'"'"'" | sed "s/^3|/success|/")|0"
'
test_expect_success SHARED,SQLITE3,PYTHON 'AMD MI300X v5.1: FINISHED, time to train = python; 1xMI300X gives 1 node, no world size' '
	test_eq "$("$PY" "$ORACLE" run "$AMD")" "$(q "$S" "$TTT_OF '"'"'%/$(basename "$AMD")'"'"'" | sed "s/^3|/success|/")|0" &&
	test_eq "1|" "$(q "$S" "SELECT (SELECT p.value FROM param p JOIN dict d ON d.id=p.key_id WHERE p.run_id=r.id AND d.s='"'"'num_nodes'"'"'), COALESCE(r.n, '"'"''"'"') FROM run r JOIN source f ON f.id=r.source_id WHERE f.path LIKE '"'"'%/$(basename "$AMD")'"'"'")"
'
test_expect_success SHARED 'stats on the AMD result alone: the reason is the missing world size and how to give it' '
	"$AMDAHL" --store "$TMP/amd.db" ingest "$AMD" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/amd.db" stats --metric time_to_train_s &&
	test_contains "no run has a usable time_to_train_s: runs without a world size are left out (below); give one as the run'"'"'s world_size param" "$OUT" &&
	test_contains "left out: llama2_70b_lora-1xMI300X (repeat 0" "$OUT" &&
	test_contains "no axis value (world size unknown)" "$OUT"
'
test_expect_success SHARED,SQLITE3 'a Lambda log with one :::MLLOG line broken: exit 2 naming its line, store unchanged' '
	n=$(grep -n ":::MLLOG" "$M/lambda-llama2_70b_lora-1x8gpu.log" | sed -n 30p | cut -d: -f1) &&
	sed "${n}s/\"value\": /\"value\" /" "$M/lambda-llama2_70b_lora-1x8gpu.log" >"$TMP/broken.log" &&
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/broken.log" &&
	test_contains "broken.log: line $n: :::MLLOG is not JSON" "$ERR" &&
	test_eq "$before" "$(store_digest "$S")"
'
test_done
