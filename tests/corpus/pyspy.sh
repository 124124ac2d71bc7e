#!/bin/bash
# py-spy on the public samples: a speedscope file from py-spy 0.4.2, a
# `py-spy dump`, and perf collapsed stacks. Detection by content, exact
# totals (sum of samples = the file's total, computed by Python), and
# top self/total/per-thread rows and the trie against the Python oracle.
test_description='py-spy public samples: detection, exact totals, top and trie against the oracle'
. "$(dirname "$0")/../test-lib.sh"

S="$TMP/s.db"
R="$TMP/r.db"
N="$TMP/n.db"
N2="$TMP/n2.db"
P="$PUBLIC/pyspy"
ORACLE="$AMDAHL_ROOT/tests/oracle/pyspy_oracle.py"
SS="$P/cs336-bpe.speedscope.json"
DUMP="$P/calendarbot.dump.txt"
PERF="$P/flamegraph-perf-collapsed-pid.txt"
ingest_out=""

kind() { q "$S" "SELECT kind FROM source WHERE path LIKE '%/$1'"; }
total() { q "$S" "SELECT sum(samples) FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '%/$1'"; }
seconds() { q "$S" "SELECT printf('%.6f', sum(seconds)) FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '%/$1'"; }
SPEEDSCOPE_THREADS="SELECT count(DISTINCT thread_id) FROM stack_sample JOIN source ON source.id=source_id WHERE kind='pyspy-speedscope'"
DUMP_NODES="SELECT count(*) FROM stack_node JOIN source ON source.id=source_id WHERE kind='pyspy-dump'"
# the speedscope file's own numbers (json_get expressions)
SS_TOTALS='"%d %.6f" % (sum(len(p["samples"]) for p in d["profiles"] if p["type"] == "sampled"), sum(sum(p["weights"]) for p in d["profiles"]))'
SS_AT_200HZ='sum(round(w * 200) for p in d["profiles"] for w in p["weights"])'
SS_ENTRIES='sum(len(p["samples"]) for p in d["profiles"])'
# the collapsed file's samples: the sum of the counts ending its lines
PERF_SUM='import sys; print(sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]) if l.strip()))'
# a dump as `py-spy dump --locals` writes it: arguments and locals under a frame
LOCALS_AWK='{print} /^    _flush_buffer/ {print "        Arguments:"; print "            self: <PerformanceLogger at 0x7f3a2c1b5740>"; print "        Locals:"; print "            batch: [1, 2, 3]"}'

# top_is_oracle FORMAT FILE [top options]: `pyspy top --json -n 0` of FILE
# in $S equals the oracle's rows
top_is_oracle() {
	local fmt=$1 file=$2
	shift 2
	"$AMDAHL" --store "$S" pyspy top "$file" --json -n 0 "$@" >"$TMP/o.json"
	test_eq ok "$("$PY" "$ORACLE" check "$fmt" "$file" "$TMP/o.json" "$@" 2>&1)"
}

# the whole folder: speedscope, dump, perf collapsed and four flame graph
# SVGs of py-spy record -o profile.svg (one of a py-spy started by its
# full path, one recorded with --rate 10: issue 36)
test_expect_success SHARED 'setup: ingest the public py-spy samples, the whole folder (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$P"
	ingest_out=$OUT
'
test_expect_success SHARED 'every file of the folder added' '
	n=$(ls "$P" | wc -l) &&
	test_eq "$n added, 0 replaced, 0 unchanged, 0 failed; $n linked to no run; 0 other files skipped" "$ingest_out"
'
for svg in $(cd "$P" && ls *.svg); do
	test_expect_success SHARED,SQLITE3,PYTHON "$svg: a py-spy SVG, samples = total_samples, top self and total = oracle" '
		test_eq pyspy-svg "$(kind '$svg')" &&
		test_eq "$(grep -o "total_samples=\"[0-9]*\"" "$P/'$svg'" | tr -dc 0-9)" "$(total '$svg')" &&
		top_is_oracle svg "$P/'$svg'" &&
		top_is_oracle svg "$P/'$svg'" --total
	'
done
test_expect_success SHARED,SQLITE3,PYTHON 'bomberman: recorded with --rate 10 (its title): seconds = samples / 10 Hz, as python reads the title' '
	want=$("$PY" -c "import re, sys; t = open(sys.argv[1]).read(); r = float(re.search(r\"<text id=\\\"title\\\"[^>]*>py-spy record --rate ([0-9.]+) \", t).group(1)); n = int(re.search(r\"total_samples=\\\"([0-9]+)\\\"\", t).group(1)); print(\"%d|%.6f\" % (n, n / r))" "$P/bomberman-pyspy.svg") &&
	test_eq "$want" "$(total bomberman-pyspy.svg)|$(seconds bomberman-pyspy.svg)"
'
test_expect_success SHARED,SQLITE3 'profiling-test: py-spy started by its full path, every sample read' '
	test_contains "/bin/py-spy record " "$(grep -o "<text id=\"title\"[^<]*" "$P/profiling-test.py-spy.svg")" &&
	test_eq 10687 "$(total profiling-test.py-spy.svg)"
'
test_expect_success SHARED,SQLITE3 'each file detected by its content: speedscope, dump text, perf collapsed' '
	test_eq pyspy-speedscope "$(kind cs336-bpe.speedscope.json)"
	test_eq pyspy-dump "$(kind calendarbot.dump.txt)"
	test_eq pyspy-collapsed "$(kind flamegraph-perf-collapsed-pid.txt)"
'
test_expect_success SHARED,SQLITE3,PYTHON 'speedscope: samples = sample entries, seconds = sum of weights' '
	test_eq "$(json_get "$SS" "$SS_TOTALS")" \
		"$(total cs336-bpe.speedscope.json) $(seconds cs336-bpe.speedscope.json)"
'
test_expect_success SHARED,SQLITE3 'speedscope: one thread per profile' '
	test_eq 4 "$(q "$S" "$SPEEDSCOPE_THREADS")"
'
test_expect_success SHARED,SQLITE3,PYTHON 'perf collapsed: samples = sum of the counts, seconds = samples / 100 Hz (py-spy'\''s default)' '
	want=$("$PY" -c "$PERF_SUM" "$PERF")
	test_eq "$want" "$(total flamegraph-perf-collapsed-pid.txt)"
	test_near "$(echo "$want / 100" | bc -l)" "$(seconds flamegraph-perf-collapsed-pid.txt)" 1e-6
'
test_expect_success SHARED,SQLITE3,PYTHON 'dump: one sample per thread; trie nodes = distinct root paths' '
	test_eq "$("$PY" "$AMDAHL_ROOT/tests/oracle/pyspy_dump_trie.py" "$DUMP")" \
		"$(total calendarbot.dump.txt) $(q "$S" "$DUMP_NODES")"
'

test_expect_success SHARED,PYTHON 'speedscope: self = oracle' '
	top_is_oracle speedscope "$SS"
'
test_expect_success SHARED,PYTHON 'speedscope: total = oracle' '
	top_is_oracle speedscope "$SS" --total
'
test_expect_success SHARED,PYTHON 'speedscope: per thread = oracle' '
	top_is_oracle speedscope "$SS" --per-thread --total
'
test_expect_success SHARED,PYTHON 'speedscope: --library multiprocessing = oracle' '
	top_is_oracle speedscope "$SS" --library multiprocessing
'
test_expect_success SHARED,PYTHON 'dump: self = oracle' '
	top_is_oracle dump "$DUMP"
'
test_expect_success SHARED,PYTHON 'dump: per thread total = oracle' '
	top_is_oracle dump "$DUMP" --per-thread --total
'
test_expect_success SHARED,PYTHON 'perf collapsed: self = oracle' '
	top_is_oracle collapsed "$PERF"
'
test_expect_success SHARED,PYTHON 'perf collapsed: total = oracle' '
	top_is_oracle collapsed "$PERF" --total
'
for x in "speedscope $SS" "dump $DUMP" "collapsed $PERF"; do
	read -r fmt file <<<"$x"
	test_expect_success SHARED,PYTHON "$fmt: trie = stacks merged by path" '
		"$AMDAHL" --store "$S" pyspy trie "$file" --json >"$TMP/t.json"
		test_eq ok "$("$PY" "$ORACLE" trie "$fmt" "$file" "$TMP/t.json" 2>&1)"
	'
done

# the speedscope's rate: --rate overrides the 1/weight py-spy wrote
test_expect_success SHARED 'setup: the speedscope ingested with --rate 200 (exit 0)' '
	test_status 0 "$AMDAHL" --store "$R" ingest --rate 200 "$SS"
'
test_expect_success SHARED,SQLITE3,PYTHON 'weights of 0.01 s at 200 Hz: samples = seconds × rate' '
	test_eq "$(json_get "$SS" "$SS_AT_200HZ")" "$(q "$R" "SELECT sum(samples) FROM stack_sample")"
'

# malformed files: one-line error with the place, exit 2, store unchanged
test_expect_success SHARED,SQLITE3,PYTHON 'speedscope: a frame index past shared.frames fails (exit 2) naming the sample; store unchanged' '
	"$PY" "$AMDAHL_ROOT/tests/lib/speedscope_variant.py" bad-frame "$SS" "$TMP/bad.speedscope.json" &&
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.speedscope.json"
	test_contains "bad.speedscope.json: profiles[1].samples[5]: frame index out of shared.frames" "$ERR"
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success SHARED,SQLITE3 'dump: a line out of place fails (exit 2) at its line; store unchanged' '
	sed "12s/^    /  /" "$DUMP" >"$TMP/bad.dump.txt" &&
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.dump.txt"
	test_contains "bad.dump.txt: line 12: expected a Process, Thread or indented frame line" "$ERR"
	test_eq "$before" "$(store_digest "$S")"
'

# dump --locals: the argument and local lines under a frame are skipped
test_expect_success SHARED 'setup: ingest a dump with --locals (exit 0)' '
	awk "$LOCALS_AWK" "$DUMP" >"$TMP/locals.dump.txt" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/locals.dump.txt"
'
test_expect_success SHARED,PYTHON 'locals dump: same rows as the plain dump (oracle)' '
	"$AMDAHL" --store "$S" pyspy top "$TMP/locals.dump.txt" --json -n 0 --per-thread --total >"$TMP/o.json"
	test_eq ok "$("$PY" "$ORACLE" check dump "$DUMP" "$TMP/o.json" --per-thread --total)"
'

# older py-spy speedscope: unit "none", weight 1 per sample; seconds come
# from the rate (py-spy's default 100 Hz, or --rate)
test_expect_success SHARED,PYTHON 'setup: a unit none speedscope ingests (exit 0), also with --rate 250' '
	"$PY" "$AMDAHL_ROOT/tests/lib/speedscope_variant.py" unit-none "$SS" "$TMP/old.speedscope.json" &&
	test_status 0 "$AMDAHL" --store "$N" ingest "$TMP/old.speedscope.json"
	test_status 0 "$AMDAHL" --store "$N2" ingest --rate 250 "$TMP/old.speedscope.json"
'
test_expect_success SHARED,SQLITE3,PYTHON 'unit none: samples = the weights'\'' sum, seconds = samples / 100 Hz' '
	want=$(json_get "$SS" "$SS_ENTRIES")
	test_eq "$want" "$(q "$N" "SELECT sum(samples) FROM stack_sample")"
	test_near "$(echo "$want / 100" | bc -l)" "$(q "$N" "SELECT sum(seconds) FROM stack_sample")" 1e-6
'
test_expect_success SHARED,SQLITE3,PYTHON 'unit none with --rate 250: seconds = samples / 250 Hz' '
	want=$(json_get "$SS" "$SS_ENTRIES")
	test_near "$(echo "$want / 250" | bc -l)" "$(q "$N2" "SELECT sum(seconds) FROM stack_sample")" 1e-6
'

test_done
