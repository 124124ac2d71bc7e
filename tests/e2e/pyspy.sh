#!/bin/bash
# py-spy end to end: ingest the files in testdata/pyspy (raw collapsed with
# -s/-t root frames, perf collapsed, chrometrace, dump --json), link them
# to a run, and check `amdahl pyspy top` (self, total, per thread,
# library) and `pyspy trie` against the Python oracle; bad input fails
# with its line or place, exit 2, store unchanged.
test_description='amdahl pyspy: ingest, top and trie against the Python oracle'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
SPY="$DATA/pyspy"
ORACLE="$AMDAHL_ROOT/tests/oracle/pyspy_oracle.py"
BAD="$AMDAHL_ROOT/tests/lib/pyspy_bad_inputs.py"
RUN=3679a94ec2214cbe8d71215b864c78ea # an itwinai launch (ddp-1x1-scaling-1gpu, repeat 0)
INGESTED= want_n= want_s= # set by setup cases

kind() { q "$S" "SELECT kind FROM source WHERE path LIKE '%/$1'"; }
# check FORMAT FILE SELECTION [top options] — `pyspy top SELECTION --json
# -n 0 [options]` equals the oracle's reading of FILE
check() {
	local fmt=$1 file=$2 sel=$3
	shift 3
	"$AMDAHL" --store "$S" pyspy top "$sel" --json -n 0 "$@" >"$TMP/o.json" 2>"$TMP/e"
	test_eq ok "$("$PY" "$ORACLE" check "$fmt" "$file" "$TMP/o.json" "$@" 2>&1)"
}
SS_ENTRIES='sum(len(p["samples"]) for p in d["profiles"])'
# unchanged — the store $S is the same as before the case ($before)
unchanged() { test_eq "$before" "$(store_digest "$S")"; }

test_expect_success 'setup: ingest the itwinai sweep (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$DATA/itwinai-layout"
'
test_expect_success 'setup: ingest a raw py-spy file for one run (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$RUN" "$SPY/train-raw.txt"
'
test_expect_success 'setup: ingest the other py-spy files (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$SPY"
	INGESTED=$OUT
'
test_expect_success '6 more py-spy files; the raw one is not read twice' '
	test_eq "6 added, 0 replaced, 1 unchanged, 0 failed; 6 linked to no run; 2 other files skipped" "$INGESTED"
'
test_expect_success SQLITE3 'formats detected: raw and perf collapsed, chrometrace, dump --json' '
	test_eq pyspy-collapsed "$(kind train-raw.txt)"
	test_eq pyspy-collapsed "$(kind perf-collapsed.txt)"
	test_eq pyspy-chrometrace "$(kind train.chrometrace.json)"
	test_eq pyspy-dump-json "$(kind calendarbot.dump.json)"
'
test_expect_success SQLITE3 'MLflow metric files ("ts value step") are not taken for stacks' '
	test_eq 0 "$(q "$S" "SELECT count(*) FROM source WHERE kind LIKE '\''pyspy%'\'' AND path LIKE '\''%mllogs%'\''")"
'
test_expect_success SQLITE3 "the raw file's samples belong to the run" '
	test_eq "$(q "$S" "SELECT id FROM run WHERE ext_id='\''$RUN'\''")" \
		"$(q "$S" "SELECT DISTINCT run_id FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '\''%train-raw.txt'\''")"
'

# process and thread root frames: -s command line with ';' kept whole
test_expect_success SQLITE3 "process from the innermost -s frame, ';' in its command line kept" '
	test_eq "4250 python train.py --data ./d;rm --tag a;b" \
		"$(q "$S" "SELECT DISTINCT d.s FROM stack_sample JOIN dict d ON d.id=process_id JOIN source ON source.id=source_id WHERE path LIKE '\''%train-raw.txt'\''")"
'
test_expect_success SQLITE3 'threads from the -t frames' '
	test_eq "0x16DF7B000 Thread-1 (_handle_workers)|0x16EF87000 Thread-2 (_handle_tasks)|0x16FF93000 Thread-3 (_handle_results)|0x1FA08F100 MainThread" \
		"$(q "$S" "SELECT group_concat(s, '\''|'\'') FROM (SELECT DISTINCT d.s FROM stack_sample JOIN dict d ON d.id=thread_id JOIN source ON source.id=source_id WHERE path LIKE '\''%train-raw.txt'\'' ORDER BY 1)")"
'
test_expect_success SQLITE3 'no process/thread text left among the frames' '
	test_eq 0 "$(q "$S" "SELECT count(*) FROM frame JOIN dict ON dict.id=name_id WHERE s LIKE '\''process %'\'' OR s LIKE '\''thread (%'\''")"
'

# totals: sum of samples = the file's total, seconds = samples / 100 Hz
test_expect_success "setup: pyspy top RUN --json (exit 0); the oracle's totals of the raw file" '
	read -r want_n want_s < <("$PY" "$ORACLE" total collapsed "$SPY/train-raw.txt")
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$RUN" --json -n 0 &&
	cp "$TMP/out" "$TMP/top.json"
'
test_expect_success "samples = the raw file's total; thread-seconds = samples / 100 Hz" '
	test_eq "$want_n" "$(json_get "$TMP/top.json" "d[\"samples\"]")"
	test_near "$want_s" "$(json_get "$TMP/top.json" "d[\"seconds\"]")" 1e-6
'
test_expect_success 'raw: self time per function = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN"
'
test_expect_success 'raw: total time (once per stack) = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN" --total
'
test_expect_success 'raw: per thread = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN" --per-thread
'
test_expect_success 'raw: per thread, total = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN" --per-thread --total
'
test_expect_success 'raw: --library multiprocessing = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN" --library multiprocessing
'
test_expect_success 'raw: --library cs336_basics = oracle' '
	check collapsed "$SPY/train-raw.txt" "$RUN" --library cs336_basics
'
test_expect_success 'perf collapsed: self = oracle' '
	check collapsed "$SPY/perf-collapsed.txt" "$SPY/perf-collapsed.txt"
'
test_expect_success 'perf collapsed: total = oracle' '
	check collapsed "$SPY/perf-collapsed.txt" "$SPY/perf-collapsed.txt" --total
'
test_expect_success 'chrometrace: self (time-weighted) = oracle' '
	check chrometrace "$SPY/train.chrometrace.json" "$SPY/train.chrometrace.json"
'
test_expect_success 'chrometrace: per thread total = oracle' '
	check chrometrace "$SPY/train.chrometrace.json" "$SPY/train.chrometrace.json" --per-thread --total
'
test_expect_success 'dump --json: self = oracle' '
	check dump-json "$SPY/calendarbot.dump.json" "$SPY/calendarbot.dump.json"
'
test_expect_success 'dump --json: per thread total = oracle' '
	check dump-json "$SPY/calendarbot.dump.json" "$SPY/calendarbot.dump.json" --per-thread --total
'
# py-spy 0.3.14 (100 Hz) and 0.4.1 (1000 Hz) speedscope with empty samples:
# an empty sample counts in the thread's time as the frame "<idle>"
IDLE_COUNT='sum(1 for p in d["profiles"] for s in p["samples"] if not s)'
of_file() { echo "JOIN source ON source.id=stack_sample.source_id WHERE path LIKE '%/$1'"; }
idle_samples() { q "$S" "SELECT sum(samples) FROM stack_sample JOIN stack_node n ON n.id=leaf_id JOIN frame f ON f.id=n.frame_id JOIN dict ON dict.id=f.name_id $(of_file "$1") AND dict.s='<idle>'"; }
all_samples() { q "$S" "SELECT sum(samples) FROM stack_sample $(of_file "$1")"; }
IDLE3=idle-0.3.14.speedscope.json
IDLE4=idle-0.4.1-1000hz.speedscope.json
test_expect_success SQLITE3 'speedscope with empty samples (py-spy 0.3.14, 0.4.1) read as speedscope' '
	test_eq pyspy-speedscope "$(kind $IDLE3)" &&
	test_eq pyspy-speedscope "$(kind $IDLE4)"
'
test_expect_success SQLITE3 'speedscope with empty samples: every sample counted' '
	test_eq "$(json_get "$SPY/$IDLE3" "$SS_ENTRIES")" "$(all_samples $IDLE3)" &&
	test_eq "$(json_get "$SPY/$IDLE4" "$SS_ENTRIES")" "$(all_samples $IDLE4)"
'
test_expect_success SQLITE3 'speedscope: the empty samples are the <idle> samples' '
	test_eq "$(json_get "$SPY/$IDLE3" "$IDLE_COUNT")" "$(idle_samples $IDLE3)" &&
	test_eq "$(json_get "$SPY/$IDLE4" "$IDLE_COUNT")" "$(idle_samples $IDLE4)"
'
test_expect_success 'speedscope with empty samples: per thread total = oracle (100 Hz, 1000 Hz)' '
	check speedscope "$SPY/$IDLE3" "$SPY/$IDLE3" --per-thread --total &&
	check speedscope "$SPY/$IDLE4" "$SPY/$IDLE4" --per-thread --total
'
# py-spy's default output (record -o profile.svg): the flame graph of
# train-raw.txt's stacks (-s/-t root frames), read back into the same
# stacks: the oracle's sample-by-sample reading of the SVG, and the
# collapsed file's own oracle
SVG="$SPY/train.py-spy.svg"
test_expect_success SQLITE3 'flame graph SVG: detected as pyspy-svg, samples = total_samples' '
	test_eq pyspy-svg "$(kind train.py-spy.svg)" &&
	test_eq "$(grep -o "total_samples=\"[0-9]*\"" "$SVG" | tr -dc 0-9)" "$(all_samples train.py-spy.svg)"
'
test_expect_success 'SVG: self and per-thread total = oracle' '
	check svg "$SVG" "$SVG" &&
	check svg "$SVG" "$SVG" --per-thread --total
'
test_expect_success 'SVG: the same stacks as the collapsed file it draws (its oracle, per thread)' '
	check collapsed "$SPY/train-raw.txt" "$SVG" --per-thread &&
	check collapsed "$SPY/train-raw.txt" "$SVG" --total
'
test_expect_success SQLITE3 'SVG: process and threads from the -s/-t root frames' '
	test_eq "4250 python train.py --data ./d;rm --tag a;b" \
		"$(q "$S" "SELECT DISTINCT d.s FROM stack_sample JOIN dict d ON d.id=process_id $(of_file train.py-spy.svg)")" &&
	test_eq 4 "$(q "$S" "SELECT count(DISTINCT thread_id) FROM stack_sample $(of_file train.py-spy.svg)")"
'
svg_refused() { # FILE NEEDLE: exit 2, one line with NEEDLE, store unchanged
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$1"
	test_contains "$2" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	unchanged
}
test_expect_success SQLITE3 'SVG cut short: exit 2, the line where it ends, store unchanged' '
	head -c 20000 "$SVG" >"$TMP/cut.svg" &&
	svg_refused "$TMP/cut.svg" "cut.svg: line "
'
test_expect_success SQLITE3 'a flame graph from another tool (FlameGraph.pl title): refused as such, store unchanged' '
	sed "s|>py-spy record [^<]*<|>Flame Graph<|" "$SVG" >"$TMP/other.svg" &&
	svg_refused "$TMP/other.svg" "other.svg: a flame graph SVG from another tool (titled '\''Flame Graph'\'')"
'
test_expect_success SQLITE3 'a frame outside its parent row: refused naming the frame, store unchanged' '
	sed "0,/fg:x=\"0\" fg:w=\"10181\"\/><text x=\"0.2500%\" y=\"94.50\"/s//fg:x=\"1\" fg:w=\"10181\"\/><text x=\"0.2500%\" y=\"94.50\"/" "$SVG" >"$TMP/nest.svg" &&
	! cmp -s "$SVG" "$TMP/nest.svg" &&
	svg_refused "$TMP/nest.svg" "lies under no frame of the row above"
'
test_expect_success SQLITE3 'a frame title without its sample count: refused, store unchanged' '
	sed "0,/ ([0-9,]* samples, [0-9.]*%)<\/title>/s//<\/title>/" "$SVG" >"$TMP/nocount.svg" &&
	svg_refused "$TMP/nocount.svg" "a frame title without"
'
test_expect_success SQLITE3 'a frame with no title, or an empty one: refused, store unchanged' '
	sed "0,/<title>[^<]*([0-9,]* samples, [0-9.]*%)<\/title>/s///" "$SVG" >"$TMP/notitle.svg" &&
	! cmp -s "$SVG" "$TMP/notitle.svg" &&
	svg_refused "$TMP/notitle.svg" "notitle.svg: line 1: a frame without a title" &&
	sed "0,/<title>[^<]*([0-9,]* samples, [0-9.]*%)<\/title>/s//<title><\/title>/" "$SVG" >"$TMP/empty.svg" &&
	svg_refused "$TMP/empty.svg" "empty.svg: line 1: a frame without a title"
'
# issue 36: py-spy started by its full path, with --rate in its command
# line (the title), and a root frame holding samples of its own
test_expect_success SQLITE3 'SVG titled by py-spy'\''s full path with --rate 10: read, seconds = samples / 10 Hz' '
	sed "s|>py-spy record -s -t |>/opt/venv/bin/py-spy record --rate 10 -s -t |; s|-- torchrun train.py<|-- torchrun train.py -r 3<|" "$SVG" >"$TMP/fullpath.svg" &&
	! cmp -s "$SVG" "$TMP/fullpath.svg" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/fullpath.svg" &&
	test_eq pyspy-svg "$(kind fullpath.svg)" &&
	test_eq "10181|1018.100000" "$(q "$S" "SELECT sum(samples), printf('"'"'%.6f'"'"', sum(seconds)) FROM stack_sample $(of_file fullpath.svg)")" &&
	check svg "$TMP/fullpath.svg" "$TMP/fullpath.svg" --per-thread --total
'
test_expect_success SQLITE3 'SVG whose root holds 7 samples of its own: read, the 7 as <idle>, total = total_samples' '
	sed "s|<title>all (10,181 samples, 100.00%)</title>\(<rect [^>]*\)fg:w=\"10181\"|<title>all (10,188 samples, 100.00%)</title>\1fg:w=\"10188\"|; s|total_samples=\"10181\"|total_samples=\"10188\"|" "$SVG" >"$TMP/rootself.svg" &&
	! cmp -s "$SVG" "$TMP/rootself.svg" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/rootself.svg" &&
	test_eq 10188 "$(all_samples rootself.svg)" &&
	test_eq 7 "$(idle_samples rootself.svg)" &&
	check svg "$TMP/rootself.svg" "$TMP/rootself.svg" --total
'
test_expect_success SQLITE3,PYTHON 'collapsed stacks one frame deep (no ;): detected as pyspy-collapsed, top = oracle' '
	awk "{n=\$NF; \$NF=\"\"; sub(/ \$/, \"\"); k=split(\$0, a, \";\"); print a[k], n}" "$SPY/train-raw.txt" >"$TMP/oneframe.txt" &&
	test_eq 0 "$(grep -c ";" "$TMP/oneframe.txt")" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/oneframe.txt" &&
	test_eq pyspy-collapsed "$(kind oneframe.txt)" &&
	test_eq "$("$PY" -c "import sys; print(sum(int(l.rsplit(None, 1)[1]) for l in open(sys.argv[1])))" "$TMP/oneframe.txt")" "$(all_samples oneframe.txt)" &&
	check collapsed "$TMP/oneframe.txt" "$TMP/oneframe.txt" --total
'
test_expect_success 'a py-spy dump is one snapshot: "1 sample per thread", its threads counted by python' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$SPY/calendarbot.dump.json" -n 1 &&
	test_eq "py-spy $SPY/calendarbot.dump.json: one snapshot (py-spy dump): 1 sample per thread, $(json_get "$SPY/calendarbot.dump.json" "len(d)") threads" \
		"$(printf "%s\n" "$OUT" | head -1)"
'
test_expect_success 'a recording still says samples and thread-seconds' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$SVG" -n 1 &&
	test_contains "samples, " "$(printf "%s\n" "$OUT" | head -1)" &&
	test_contains " thread-seconds, " "$(printf "%s\n" "$OUT" | head -1)"
'
test_expect_success 'chrometrace: 2 + 3 × 400 samples of 10 ms (oracle)' '
	test_eq "1202 12.020000" "$("$PY" "$ORACLE" total chrometrace "$SPY/train.chrometrace.json")"
'

# the recursion rule, on an exact number: bpe.py's merge_tokens total
# counts each stack once (the oracle counts distinct functions per stack)
test_expect_success 'merge_tokens total = samples of the stacks holding it' '
	test_eq "$("$PY" "$AMDAHL_ROOT/tests/oracle/collapsed_holding.py" "$SPY/train-raw.txt" "merge_tokens (")" \
		"$(json_get "$TMP/top.json" "first(d[\"functions\"], function=\"merge_tokens\")[\"total_samples\"]")"
'

test_expect_success 'the table: header names samples and thread-seconds, says rows were cut' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$RUN" -n 3 --total
	test_contains "$want_n samples, $(printf %.2f "$want_s") thread-seconds, 4 threads in 1 file" "$OUT"
	test_contains "(3 of" "$OUT"
'
test_expect_success 'per-thread table shows the thread' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$RUN" -n 2 --per-thread
	test_contains "0x1FA08F100 MainThread" "$OUT"
'
test_expect_success 'library table: a library column; leaves outside the library say (none)' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top "$RUN" --library cs336_basics -n 0
	test_contains "library frame" "$OUT"
	test_contains "(none)" "$OUT"
'

test_expect_success "trie: every node's total and self = stacks merged by path" '
	"$AMDAHL" --store "$S" pyspy trie "$RUN" --json >"$TMP/trie.json"
	test_eq ok "$("$PY" "$ORACLE" trie collapsed "$SPY/train-raw.txt" "$TMP/trie.json")"
'
test_expect_success 'trie of the chrometrace = oracle' '
	"$AMDAHL" --store "$S" pyspy trie "$SPY/train.chrometrace.json" --json >"$TMP/trie.json"
	test_eq ok "$("$PY" "$ORACLE" trie chrometrace "$SPY/train.chrometrace.json" "$TMP/trie.json")"
'

# naming RUN
test_expect_success 'a relative path names the ingested file' '
	(cd "$SPY" && "$AMDAHL" --store "$S" pyspy top train.chrometrace.json --json) >"$TMP/rel.json"
	test_contains "\"samples\":	1202" "$(cat "$TMP/rel.json")"
'
test_expect_success 'a name shared by repeats: the launch with py-spy samples, as trace show and regions pick (issue 39)' '
	"$AMDAHL" --store "$S" pyspy top "$RUN" >"$TMP/by-id.txt" &&
	test_status 0 "$AMDAHL" --store "$S" pyspy top ddp-1x1-scaling-1gpu
	test_eq "$(sed 1d "$TMP/by-id.txt")" "$(printf "%s\n" "$OUT" | sed 1d)"
	test_contains "samples" "$OUT"
'
test_expect_success 'an unknown RUN: exit 2, named in the error with the closest run names' '
	test_status 2 "$AMDAHL" --store "$S" pyspy top no-such-run
	test_contains "no-such-run: no run" "$ERR"
	test_status 2 "$AMDAHL" --store "$S" pyspy top ddp-1x1-scaling-1gpx
	test_contains "closest: '\''ddp-1x1-scaling-1gpu'\''" "$ERR"
'
test_expect_success '--library with --total is a usage error (exit 2)' '
	test_status 2 "$AMDAHL" --store "$S" pyspy top "$RUN" --library x --total
'
test_expect_success 'a run without py-spy samples says so, and how to link one (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" pyspy top 1b4f181879174abfb2088a1d6866d3fc
	test_contains "no py-spy samples" "$OUT"
'
test_expect_success 'pyspy --help names the commands' '
	test_status 0 "$AMDAHL" pyspy --help
	test_contains "amdahl pyspy top RUN" "$OUT"
'

# --rate: counts / rate
test_expect_success SQLITE3 'ingest with --rate 250: seconds = 57 samples / 250 Hz' '
	test_status 0 "$AMDAHL" --store "$TMP/r.db" ingest --rate 250 "$SPY/perf-collapsed.txt"
	test_near 0.228 "$(q "$TMP/r.db" "SELECT sum(seconds) FROM stack_sample")" 1e-9
'

# malformed input: error with its place, exit 2, store unchanged
test_expect_success SQLITE3 'a line without a count fails the file at line 7 (exit 2, store unchanged)' '
	before=$(store_digest "$S")
	sed "7s/ [0-9]*\$//" "$SPY/train-raw.txt" >"$TMP/bad-raw.txt"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/bad-raw.txt"
	test_contains "bad-raw.txt: line 7: expected '\''frame;frame;… COUNT'\''" "$ERR"
	unchanged
'
test_expect_success SQLITE3 'an empty frame fails the file at line 3 (exit 2, store unchanged)' '
	before=$(store_digest "$S")
	sed "3s/;_bootstrap (/;;_bootstrap (/" "$SPY/train-raw.txt" >"$TMP/bad-empty.txt"
	test_status 2 "$AMDAHL" --store "$S" ingest --format pyspy-collapsed "$TMP/bad-empty.txt"
	test_contains "bad-empty.txt: line 3: an empty frame" "$ERR"
	unchanged
'
test_expect_success SQLITE3 'a NUL byte in line 5 fails the file there (exit 2, store unchanged), not a silent end' '
	before=$(store_digest "$S")
	{ sed -n 1,4p "$SPY/train-raw.txt"; printf "main (t.py:1);st\\000ep (t.py:2) 3\\n"
	  sed -n "6,\$p" "$SPY/train-raw.txt"; } >"$TMP/bad-nul.txt"
	test_eq 1 "$(tr -cd "\\000" <"$TMP/bad-nul.txt" | wc -c)"
	test_status 2 "$AMDAHL" --store "$S" ingest --format pyspy-collapsed "$TMP/bad-nul.txt"
	test_contains "bad-nul.txt: line 5: a NUL byte" "$ERR"
	unchanged
'
test_expect_success SQLITE3 'chrometrace: an E that closes nothing open fails, naming the event (exit 2, store unchanged)' '
	before=$(store_digest "$S")
	"$PY" "$BAD" unclosed-end "$SPY/train.chrometrace.json" "$TMP/bad.chrometrace.json"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.chrometrace.json"
	test_contains "bad.chrometrace.json: event" "$ERR"
	unchanged
'
test_expect_success SQLITE3 'truncated JSON fails with a byte offset (exit 2, store unchanged)' '
	before=$(store_digest "$S")
	head -c 3000 "$SPY/train.chrometrace.json" >"$TMP/cut.chrometrace.json"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/cut.chrometrace.json"
	test_contains "cut.chrometrace.json: byte" "$ERR"
	unchanged
'

# a first line longer than the detection head (deep recursion), and the
# recursion rule: a function repeated in a stack counts once in total
D="$TMP/d.db"
test_expect_success 'setup: ingest a file whose first line exceeds 4 KB (exit 0)' '
	"$PY" "$BAD" deep-first-line "$SPY/train-raw.txt" "$TMP/deep-raw.txt" &&
	test_status 0 "$AMDAHL" --store "$D" ingest "$TMP/deep-raw.txt"
'
test_expect_success SQLITE3 'a first line over 4 KB: detected as collapsed stacks' '
	test_eq pyspy-collapsed "$(q "$D" "SELECT kind FROM source")"
'
test_expect_success 'recursive stack: total once per stack = oracle' '
	"$AMDAHL" --store "$D" pyspy top "$TMP/deep-raw.txt" --json -n 0 --total >"$TMP/o.json"
	test_eq ok "$("$PY" "$ORACLE" check collapsed "$TMP/deep-raw.txt" "$TMP/o.json" --total)"
'

# a py-spy file under a run's artifacts belongs to that run
L="$TMP/l.db"
test_expect_success "setup: ingest a sweep with py-spy output in a run's artifacts (exit 0)" '
	cp -r "$DATA/itwinai-layout" "$TMP/itw" &&
	A="$TMP/itw/mllogs/mlflow/123456789/$RUN/artifacts/py-spy" &&
	mkdir -p "$A" && cp "$SPY/perf-collapsed.txt" "$A/rank0.txt" &&
	test_status 0 "$AMDAHL" --store "$L" ingest "$TMP/itw"
'
test_expect_success SQLITE3 "the artifact's samples are linked to its run" '
	test_eq "$RUN" "$(q "$L" "SELECT DISTINCT ext_id FROM stack_sample JOIN run ON run.id=run_id")"
'
test_expect_success "pyspy top by the run's id finds them" '
	test_status 0 "$AMDAHL" --store "$L" pyspy top "$RUN" --json
	read -r perf_n _ < <("$PY" "$ORACLE" total collapsed "$SPY/perf-collapsed.txt")
	test_contains "\"samples\":	$perf_n," "$OUT"
'
test_expect_success 'pyspy top without RUN is a usage error, listing the runs that have samples' '
	test_status 2 "$AMDAHL" --store "$S" pyspy top
	test_contains "runs with py-spy samples: ddp-1x1-scaling-1gpu ($RUN)" "$ERR"
'

# gzipped files are read through zlib (the chrometrace is streamed)
test_expect_success SQLITE3 'a gzipped chrometrace is ingested, detected and read whole' '
	read -r ct_n _ < <("$PY" "$ORACLE" total chrometrace "$SPY/train.chrometrace.json")
	gzip -c "$SPY/train.chrometrace.json" >"$TMP/train.chrometrace.json.gz" &&
	test_status 0 "$AMDAHL" --store "$TMP/g.db" ingest "$TMP/train.chrometrace.json.gz"
	test_eq "pyspy-chrometrace $ct_n" \
		"$(q "$TMP/g.db" "SELECT kind FROM source") $(q "$TMP/g.db" "SELECT sum(samples) FROM stack_sample")"
'

test_done
