#!/bin/bash
# formats_mlperf.sh — MLPerf :::MLLOG logs (testdata/mllog: two repeats
# of a real tiny CPU training logged in mlperf_logging's format, rank
# prefixes and :::SYSJSON as NVIDIA's launcher prints them): runs like
# MLflow's checked against python's json (tests/oracle/mllog_oracle.py),
# stats on them, and bad inputs (a line that is not JSON, truncated, no
# key) that give one line, exit 2 and leave the store unchanged.
test_description='MLPerf logs: runs, params and metrics against python json; bad inputs'
. "$(dirname "$0")/../test-lib.sh"

D="$DATA/mllog"
ORACLE="$AMDAHL_ROOT/tests/oracle/mllog_oracle.py"
bad_file="" bad_needle=""

BLOCKS="SELECT printf('%d|%.6f|%s', e.step, e.value, COALESCE(printf('%.6f', t.value), ''))
 FROM metric_point e JOIN dict d ON d.id=e.key_id AND d.s='epoch_time_s' JOIN run r ON r.id=e.run_id
 LEFT JOIN metric_point t ON t.run_id=e.run_id AND t.step=e.step
  AND t.key_id=(SELECT id FROM dict WHERE s='throughput_samples_per_s')
 ORDER BY r.name, r.start_ms, e.step"
TTT="SELECT printf('%d|%.3f', r.n, m.value) FROM metric_point m JOIN dict d ON d.id=m.key_id
 JOIN run r ON r.id=m.run_id WHERE d.s='time_to_train_s' ORDER BY r.n, r.start_ms"
EVALS="SELECT printf('%.9f %d', sum(value), count(*)) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='eval_accuracy'"
param() { q "$TMP/m.db" "SELECT group_concat(DISTINCT p.value) FROM param p JOIN dict d ON d.id=p.key_id WHERE d.s='$1'"; }

test_expect_success 'setup: a results folder of two repeats ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$TMP/m.db" ingest "$D"
'
test_expect_success SQLITE3 'detected by content as mlperf-log; one run per file, same name, one sweep' '
	test_eq "mlperf-log|2" "$(q "$TMP/m.db" "SELECT kind, count(*) FROM source GROUP BY kind")" &&
	test_eq "mlperf-tiny_mlp|tiny_mlp-1x1|2" "$(q "$TMP/m.db" "SELECT s.name, r.name, count(*) FROM run r JOIN sweep s ON s.id=r.sweep_id GROUP BY r.name")"
'
test_expect_success SQLITE3 'status FINISHED, start and end at run_start and run_stop, n from SYSJSON' '
	test_eq "3|1|1" "$(q "$TMP/m.db" "SELECT DISTINCT status, n, nodes FROM run")" &&
	test_eq 2 "$(q "$TMP/m.db" "SELECT count(*) FROM run WHERE end_ms > start_ms AND start_ms > 0")"
'
test_expect_success SQLITE3 'params: config keys logged once, and the system description' '
	test_eq 64 "$(param global_batch_size)" &&
	test_eq "1,2" "$(param seed)" &&
	test_eq 1 "$(param world_size)" &&
	test_eq CPU "$(param accelerator_model_name)" &&
	test_eq "" "$(param eval_accuracy)"
'
test_expect_success SQLITE3,PYTHON 'time to train per log equals python json (run_stop - run_start)' '
	test_eq "$("$PY" "$ORACLE" ttt "$D"/result_*.txt)" "$(q "$TMP/m.db" "$TTT")"
'
test_expect_success SQLITE3,PYTHON 'block times and samples/s per block equal python json' '
	test_eq "$("$PY" "$ORACLE" blocks "$D"/result_0.txt "$D"/result_1.txt)" "$(q "$TMP/m.db" "$BLOCKS")"
'
test_expect_success SQLITE3,PYTHON 'eval_accuracy: every value, summed, equals python json' '
	test_eq "$("$PY" "$ORACLE" evals "$D"/result_*.txt)" "$(q "$TMP/m.db" "$EVALS")"
'
test_expect_success SQLITE3 'tracked_stats members are metrics named KEY/MEMBER at their step' '
	test_eq "8|8192" "$(q "$TMP/m.db" "SELECT count(*), max(step) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'tracked_stats/train_loss'"'"'")"
'
test_expect_success PYTHON 'stats --metric time_to_train_s: the two repeats at n=1, median of both' '
	"$AMDAHL" --store "$TMP/m.db" stats --metric time_to_train_s --json >"$TMP/s.json" &&
	test_eq 2 "$(json_get "$TMP/s.json" "d[\"sweeps\"][0][\"strategies\"][0][\"points\"][0][\"runs\"]")" &&
	want=$("$PY" "$ORACLE" ttt "$D"/result_*.txt | "$PY" -c "import sys, statistics; print(\"%.3f\" % statistics.median(float(l.split(\"|\")[1]) for l in sys.stdin))") &&
	test_eq "$want" "$(json_get "$TMP/s.json" "\"%.3f\" % d[\"sweeps\"][0][\"strategies\"][0][\"points\"][0][\"median\"]")"
'
test_expect_success 'the same files again add nothing' '
	"$AMDAHL" --store "$TMP/m.db" ingest "$D" >"$TMP/again.txt" &&
	test_contains "0 added, 0 replaced, 2 unchanged" "$(cat "$TMP/again.txt")"
'
test_expect_success SQLITE3 'a log cut between lines (no run_stop) is an unfinished run, left out of stats' '
	head -n 30 "$D/result_0.txt" >"$TMP/cut_between.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/u.db" ingest "$TMP/cut_between.txt" &&
	test_eq "1|0" "$(q "$TMP/u.db" "SELECT status, count(end_ms) FROM run")"
'

# issue 36: a launcher log of many ranks (NVIDIA's: every rank logs
# init_start, the launcher's cache_clear has no prefix, a later rank's
# run_stop), run_stop logged as INTERVAL_START (Graphcore's v1.0 logs),
# and the world size from submission_platform or the results folder's
# system JSON when the log has no :::SYSJSON
tag() { q "$1" "SELECT t.value FROM tag t JOIN dict d ON d.id=t.key_id WHERE d.s='$2'"; }
pparam() { q "$1" "SELECT p.value FROM param p JOIN dict d ON d.id=p.key_id WHERE d.s='$2'"; }
test_expect_success 'setup: a launcher log of ranks 0-3 (cache_clear unprefixed, rank 3 logs first, rank 1 aborts)' '
	{
		echo ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1795414645000, \"event_type\": \"POINT_IN_TIME\", \"key\": \"cache_clear\", \"value\": true, \"metadata\": {\"file\": \"<string>\", \"lineno\": 3}}" &&
		for r in 3 1 2; do sed -n "3s/^0: /$r: /p" "$D/result_0.txt"; done &&
		cat "$D/result_0.txt" &&
		sed -n "34{s/^0: /1: /;s/\"success\"/\"aborted\"/;p}" "$D/result_0.txt"
	} >"$TMP/launcher.log" &&
	test_status 0 "$AMDAHL" --store "$TMP/r.db" ingest "$TMP/launcher.log"
'
test_expect_success SQLITE3,PYTHON 'many ranks: the run is rank 0'\''s (name, status, time to train = python), ranks counted, rank 1 disagrees' '
	test_eq "tiny_mlp-1x1|3" "$(q "$TMP/r.db" "SELECT name, status FROM run")" &&
	test_eq "$("$PY" "$ORACLE" run "$TMP/launcher.log")" \
		"success|$(q "$TMP/r.db" "SELECT printf('"'"'%.3f'"'"', value) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'time_to_train_s'"'"'")|4" &&
	test_eq "$("$PY" "$ORACLE" evals "$TMP/launcher.log")" "$(q "$TMP/r.db" "$EVALS")" &&
	test_eq "0|4" "$(tag "$TMP/r.db" mlperf.run_rank)|$(tag "$TMP/r.db" mlperf.ranks)" &&
	test_eq "rank 1: run_stop status '"'"'aborted'"'"'; rank 0: '"'"'success'"'"'" "$(tag "$TMP/r.db" mlperf.ranks_disagree)"
'
test_expect_success SQLITE3 'many ranks, no :::SYSJSON: ranks 0-3 all logged on "1xcpu" (1 node) give world size 4 (4 per node); ranks 0, 1, 3 give none' '
	grep -v SYSJSON "$TMP/launcher.log" >"$TMP/nosys.log" &&
	test_status 0 "$AMDAHL" --store "$TMP/ns.db" ingest "$TMP/nosys.log" &&
	test_eq "1|4|4|4" "$(pparam "$TMP/ns.db" num_nodes)|$(pparam "$TMP/ns.db" accelerators_per_node)|$(pparam "$TMP/ns.db" world_size)|$(q "$TMP/ns.db" "SELECT n FROM run")" &&
	grep -v "^2: " "$TMP/nosys.log" >"$TMP/gap.log" &&
	test_status 0 "$AMDAHL" --store "$TMP/gap.db" ingest "$TMP/gap.log" &&
	test_eq "1||" "$(pparam "$TMP/gap.db" num_nodes)|$(pparam "$TMP/gap.db" accelerators_per_node)|$(pparam "$TMP/gap.db" world_size)"
'
test_expect_success SQLITE3,PYTHON 'fractional epoch_num (DLRM: 0.05, 0.10, ...): each eval at epoch_num x train_samples, as python computes' '
	sed "s/\"samples_count\": \([0-9]*\), \"file\"/\"epoch_num\": EPOCH\1, \"file\"/" "$D/result_0.txt" |
		"$PY" -c "import re, sys; print(re.sub(r\"EPOCH([0-9]+)\", lambda m: str(int(m.group(1)) / 40960), sys.stdin.read()), end=\"\")" |
		sed "5a0: :::MLLOG {\"namespace\": \"\", \"time_ms\": 1795414646152, \"event_type\": \"POINT_IN_TIME\", \"key\": \"train_samples\", \"value\": 4195197692, \"metadata\": {\"file\": \"record.py\", \"lineno\": 0}}" >"$TMP/dlrm.txt" &&
	grep -q "\"epoch_num\": 0.05," "$TMP/dlrm.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/dl.db" ingest "$TMP/dlrm.txt" &&
	want=$("$PY" -c "import json, sys; ev = [json.loads(l.split(\":::MLLOG \", 1)[1]) for l in open(sys.argv[1]) if \":::MLLOG \" in l]; ts = [e[\"value\"] for e in ev if e[\"key\"] == \"train_samples\"][0]; print(\"\\n\".join(\"%d|%.6f\" % (round(e[\"metadata\"][\"epoch_num\"] * ts), e[\"value\"]) for e in ev if e[\"key\"] == \"eval_accuracy\"))" "$TMP/dlrm.txt") &&
	test_eq "$want" "$(q "$TMP/dl.db" "SELECT printf('"'"'%d|%.6f'"'"', step, value) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'eval_accuracy'"'"' ORDER BY step")" &&
	test_eq 4 "$(q "$TMP/dl.db" "SELECT count(DISTINCT step) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'eval_accuracy'"'"'")" &&
	test_eq "samples: epoch_num x train_samples" "$(tag "$TMP/dl.db" mlperf.step)"
'
test_expect_success SQLITE3,PYTHON 'run_stop logged as INTERVAL_START (Graphcore): FINISHED, time to train = python' '
	sed "34s/\"INTERVAL_END\"/\"INTERVAL_START\"/" "$D/result_0.txt" >"$TMP/gc.txt" &&
	! cmp -s "$D/result_0.txt" "$TMP/gc.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/gc.db" ingest "$TMP/gc.txt" &&
	test_eq "3" "$(q "$TMP/gc.db" "SELECT status FROM run")" &&
	test_eq "$("$PY" "$ORACLE" run "$TMP/gc.txt")" \
		"success|$(q "$TMP/gc.db" "SELECT printf('"'"'%.3f'"'"', value) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'time_to_train_s'"'"'")|1"
'
test_expect_success SQLITE3 'no :::SYSJSON: world size from submission_platform "2xXE9680x8" (2 nodes x 8); "1xMI300X" gives nodes only' '
	grep -v SYSJSON "$D/result_0.txt" | sed "s/\"value\": \"1xcpu\"/\"value\": \"2xXE9680x8\"/" >"$TMP/plat.txt" &&
	grep -v SYSJSON "$D/result_0.txt" | sed "s/\"value\": \"1xcpu\"/\"value\": \"1xMI300X\"/" >"$TMP/mi.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/p.db" ingest "$TMP/plat.txt" &&
	test_eq "2|8|16|16" "$(pparam "$TMP/p.db" num_nodes)|$(pparam "$TMP/p.db" accelerators_per_node)|$(pparam "$TMP/p.db" world_size)|$(q "$TMP/p.db" "SELECT n FROM run")" &&
	test_status 0 "$AMDAHL" --store "$TMP/mi.db" ingest "$TMP/mi.txt" &&
	test_eq "1||" "$(pparam "$TMP/mi.db" num_nodes)|$(pparam "$TMP/mi.db" accelerators_per_node)|$(pparam "$TMP/mi.db" world_size)"
'
test_expect_success SQLITE3,PYTHON 'no :::SYSJSON in results/SYSTEM/BENCH/result_0.txt: world size from systems/SYSTEM.json (python reads the same)' '
	mkdir -p "$TMP/sub/results/MI300X_x4/tiny_mlp" "$TMP/sub/systems" &&
	cp "$TMP/mi.txt" "$TMP/sub/results/MI300X_x4/tiny_mlp/result_0.txt" &&
	echo "{\"submitter\": \"amdahl\", \"system_name\": \"MI300X_x4\", \"number_of_nodes\": \"1\", \"accelerators_per_node\": \"4\", \"accelerator_model_name\": \"AMD MI300X\"}" >"$TMP/sub/systems/MI300X_x4.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/f.db" ingest "$TMP/sub/results" &&
	test_eq "$("$PY" "$ORACLE" ttt "$TMP/sub/results/MI300X_x4/tiny_mlp/result_0.txt")" "$(q "$TMP/f.db" "$TTT")" &&
	test_eq "AMD MI300X" "$(pparam "$TMP/f.db" accelerator_model_name)"
'

test_expect_success SQLITE3,PYTHON 'first :::MLLOG line at line 1,946 (after a launcher'"'"'s output): detected as mlperf-log, time to train = python' '
	{ for i in $(seq 1945); do echo "+ echo '"'"'Beginning trial $i of 10: export NCCL_SOCKET_IFNAME=ib0 DGXNGPU=8'"'"'"; done; grep ":::MLLOG" "$D/result_0.txt"; } >"$TMP/late.txt" &&
	test_eq 1946 "$(grep -n -m1 ":::MLLOG" "$TMP/late.txt" | cut -d: -f1)" &&
	test_status 0 "$AMDAHL" --store "$TMP/late.db" ingest "$TMP/late.txt" &&
	test_eq mlperf-log "$(q "$TMP/late.db" "SELECT kind FROM source")" &&
	test_eq "$("$PY" "$ORACLE" run "$TMP/late.txt" | cut -d"|" -f1-2)" "success|$(q "$TMP/late.db" "SELECT printf('"'"'%.3f'"'"', value) FROM metric_point m JOIN dict d ON d.id=m.key_id WHERE d.s='"'"'time_to_train_s'"'"'")"
'
test_expect_success 'first :::MLLOG line past 4 MB: refused, saying what the file looks like' '
	{ yes "+ echo launcher output line of about fifty bytes ......" | head -c 4300000; grep ":::MLLOG" "$D/result_0.txt"; } >"$TMP/later.txt" &&
	test_status 2 "$AMDAHL" --store "$TMP/later.db" ingest "$TMP/later.txt" &&
	test_contains "later.txt: not a format amdahl reads (it looks like text whose first line is '"'"'+ echo launcher output line of about fifty bytes ......'"'"'; see" "$ERR"
'

test_expect_success SQLITE3,PYTHON 'a log saved as UTF-16 LE with a BOM: read as the UTF-8 log, time to train = python' '
	"$PY" -c "import sys; open(sys.argv[2], \"w\", encoding=\"utf-16\").write(open(sys.argv[1]).read())" "$D/result_0.txt" "$TMP/u16.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/u16.db" ingest "$TMP/u16.txt" &&
	test_eq "$("$PY" "$ORACLE" ttt "$D/result_0.txt")" "$(q "$TMP/u16.db" "$TTT")"
'

test_expect_success SQLITE3 '--run with an MLPerf log (a run of its own): refused, exit 2, store unchanged' '
	before=$(store_digest "$TMP/m.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/m.db" ingest --run tiny_mlp-1x1 "$D/result_0.txt" &&
	test_contains "result_0.txt: --run names the run of profiler files; this mlperf-log file is a run of its own" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/m.db")"
'

# bad inputs: one error line naming the file and line, exit 2, store unchanged
bad() {
	bad_file=$2 bad_needle=$3
	test_expect_success SQLITE3 "$1: exit 2, one error line naming the place, store unchanged" '
		test_bad_ingest "$TMP/m.db" "$bad_file" "$bad_needle"
	'
}
test_expect_success 'setup: the log broken four ways' '
	sed "12s/\"key\": /\"key\" /" "$D/result_0.txt" >"$TMP/notjson.txt" &&
	head -c 3000 "$D/result_0.txt" >"$TMP/cut.txt" &&
	sed "12s/\"key\": \"[a-z_]*\", //" "$D/result_0.txt" >"$TMP/nokey.txt" &&
	sed "12s/\"time_ms\": [0-9]*/\"time_ms\": \"soon\"/" "$D/result_0.txt" >"$TMP/notime.txt" &&
	gzip -c "$D/result_0.txt" | head -c 600 >"$TMP/cut.txt.gz"
'
bad "an :::MLLOG line that is not JSON" "$TMP/notjson.txt" "notjson.txt: line 12: :::MLLOG is not JSON"
bad "a log cut inside a line" "$TMP/cut.txt" "cut.txt: line 17: :::MLLOG is not JSON"
bad "an event without a key" "$TMP/nokey.txt" "nokey.txt: line 12: no string \"key\""
bad "a time that is not a number" "$TMP/notime.txt" "notime.txt: line 12: \"time_ms\" is not a time"
bad "a truncated gzipped log" "$TMP/cut.txt.gz" "cut.txt.gz"

test_done
