#!/bin/bash
# py-spy end to end: ingest the files in testdata/pyspy (raw collapsed with
# -s/-t root frames, perf collapsed, chrometrace, dump --json), link them
# to a run, and check `amdahl pyspy top` (self, total, per thread,
# library) and `pyspy trie` against the Python oracle; bad input fails
# with its line or place, exit 2, store unchanged.
. "$(dirname "$0")/lib.sh"
S="$TMP/s.db"
PY="$DATA/pyspy"
ORACLE="$AMDAHL_ROOT/tests/e2e/pyspy_oracle.py"
RUN=3679a94ec2214cbe8d71215b864c78ea # an itwinai launch (ddp-1x1-scaling-1gpu, repeat 0)

status "ingest the itwinai sweep" 0 "$AMDAHL" --store "$S" ingest -q "$DATA/itwinai-layout"
status "ingest a raw py-spy file for one run" 0 \
  "$AMDAHL" --store "$S" ingest --run "$RUN" "$PY/train-raw.txt"
status "ingest the other py-spy files" 0 "$AMDAHL" --store "$S" ingest "$PY"
eq "3 more py-spy files; the raw one is not read twice" "3 added, 0 replaced, 1 unchanged, 0 failed; 2 other files skipped" "$OUT"

kind() { q "$S" "SELECT kind FROM source WHERE path LIKE '%/$1'"; }
eq "raw detected" pyspy-collapsed "$(kind train-raw.txt)"
eq "perf collapsed detected" pyspy-collapsed "$(kind perf-collapsed.txt)"
eq "chrometrace detected" pyspy-chrometrace "$(kind train.chrometrace.json)"
eq "dump --json detected" pyspy-dump-json "$(kind calendarbot.dump.json)"
eq "MLflow metric files (\"ts value step\") are not taken for stacks" 0 \
  "$(q "$S" "SELECT count(*) FROM source WHERE kind LIKE 'pyspy%' AND path LIKE '%mllogs%'")"
eq "the raw file's samples belong to the run" \
  "$(q "$S" "SELECT id FROM run WHERE ext_id='$RUN'")" \
  "$(q "$S" "SELECT DISTINCT run_id FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '%train-raw.txt'")"

# process and thread root frames: -s command line with ';' kept whole
eq "process from the innermost -s frame, ';' in its command line kept" \
  "4250 python train.py --data ./d;rm --tag a;b" \
  "$(q "$S" "SELECT DISTINCT d.s FROM stack_sample JOIN dict d ON d.id=process_id JOIN source ON source.id=source_id WHERE path LIKE '%train-raw.txt'")"
eq "threads from the -t frames" \
  "0x16DF7B000 Thread-1 (_handle_workers)|0x16EF87000 Thread-2 (_handle_tasks)|0x16FF93000 Thread-3 (_handle_results)|0x1FA08F100 MainThread" \
  "$(q "$S" "SELECT group_concat(s, '|') FROM (SELECT DISTINCT d.s FROM stack_sample JOIN dict d ON d.id=thread_id JOIN source ON source.id=source_id WHERE path LIKE '%train-raw.txt' ORDER BY 1)")"
eq "no process/thread text left among the frames" 0 \
  "$(q "$S" "SELECT count(*) FROM frame JOIN dict ON dict.id=name_id WHERE s LIKE 'process %' OR s LIKE 'thread (%'")"

# totals: sum of samples = the file's total, seconds = samples / 100 Hz
read -r want_n want_s < <(/usr/bin/python3 "$ORACLE" total collapsed "$PY/train-raw.txt")
status "pyspy top RUN --json" 0 "$AMDAHL" --store "$S" pyspy top "$RUN" --json -n 0
echo "$OUT" >"$TMP/top.json"
eq "samples = the raw file's total" "$want_n" \
  "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"])' "$TMP/top.json")"
near "thread-seconds = samples / 100 Hz" "$want_s" \
  "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$TMP/top.json")" 1e-6

check() { # DESC FORMAT FILE SELECTION [top options]
  local desc=$1 fmt=$2 file=$3 sel=$4; shift 4
  "$AMDAHL" --store "$S" pyspy top "$sel" --json -n 0 "$@" >"$TMP/o.json" 2>"$TMP/e"
  eq "$desc" ok "$(/usr/bin/python3 "$ORACLE" check "$fmt" "$file" "$TMP/o.json" "$@" 2>&1)"
}
check "raw: self time per function = oracle" collapsed "$PY/train-raw.txt" "$RUN"
check "raw: total time (once per stack) = oracle" collapsed "$PY/train-raw.txt" "$RUN" --total
check "raw: per thread = oracle" collapsed "$PY/train-raw.txt" "$RUN" --per-thread
check "raw: per thread, total = oracle" collapsed "$PY/train-raw.txt" "$RUN" --per-thread --total
check "raw: --library multiprocessing = oracle" collapsed "$PY/train-raw.txt" "$RUN" --library multiprocessing
check "raw: --library cs336_basics = oracle" collapsed "$PY/train-raw.txt" "$RUN" --library cs336_basics
check "perf collapsed: self = oracle" collapsed "$PY/perf-collapsed.txt" "$PY/perf-collapsed.txt"
check "perf collapsed: total = oracle" collapsed "$PY/perf-collapsed.txt" "$PY/perf-collapsed.txt" --total
check "chrometrace: self (time-weighted) = oracle" chrometrace "$PY/train.chrometrace.json" "$PY/train.chrometrace.json"
check "chrometrace: per thread total = oracle" chrometrace "$PY/train.chrometrace.json" "$PY/train.chrometrace.json" --per-thread --total
check "dump --json: self = oracle" dump-json "$PY/calendarbot.dump.json" "$PY/calendarbot.dump.json"
check "dump --json: per thread total = oracle" dump-json "$PY/calendarbot.dump.json" "$PY/calendarbot.dump.json" --per-thread --total
read -r ct_n ct_s < <(/usr/bin/python3 "$ORACLE" total chrometrace "$PY/train.chrometrace.json")
eq "chrometrace: 2 + 3 × 400 samples of 10 ms" "1202 12.020000" "$ct_n $ct_s"

# the recursion rule, on an exact number: bpe.py's merge_tokens total
# counts each stack once (the oracle counts distinct functions per stack)
want_mt=$(/usr/bin/python3 - "$PY/train-raw.txt" <<'EOF'
import sys
n = 0
for line in open(sys.argv[1]):
    stack, c = line.rstrip("\n").rsplit(" ", 1)
    if "merge_tokens (" in stack:
        n += int(c)
print(n)
EOF
)
got_mt=$(/usr/bin/python3 -c '
import json,sys
for f in json.load(open(sys.argv[1]))["functions"]:
    if f["function"] == "merge_tokens": print(f["total_samples"])' "$TMP/top.json")
eq "merge_tokens total = stacks holding it" "$want_mt" "$got_mt"

status "the table" 0 "$AMDAHL" --store "$S" pyspy top "$RUN" -n 3 --total
contains "table header names samples and thread-seconds" \
  "$want_n samples, $(printf %.2f "$want_s") thread-seconds, 4 threads in 1 files" "$OUT"
contains "table says rows were cut" "(3 of" "$OUT"
status "per-thread table" 0 "$AMDAHL" --store "$S" pyspy top "$RUN" -n 2 --per-thread
contains "per-thread table shows the thread" "0x1FA08F100 MainThread" "$OUT"
status "library table" 0 "$AMDAHL" --store "$S" pyspy top "$RUN" --library cs336_basics -n 0
contains "library column" "library frame" "$OUT"
contains "leaves outside the library say (none)" "(none)" "$OUT"

"$AMDAHL" --store "$S" pyspy trie "$RUN" --json >"$TMP/trie.json"
eq "trie: every node's total and self = stacks merged by path" ok \
  "$(/usr/bin/python3 "$ORACLE" trie collapsed "$PY/train-raw.txt" "$TMP/trie.json")"
"$AMDAHL" --store "$S" pyspy trie "$PY/train.chrometrace.json" --json >"$TMP/trie.json"
eq "trie of the chrometrace = oracle" ok \
  "$(/usr/bin/python3 "$ORACLE" trie chrometrace "$PY/train.chrometrace.json" "$TMP/trie.json")"

# naming RUN
(cd "$PY" && "$AMDAHL" --store "$S" pyspy top train.chrometrace.json --json) >"$TMP/rel.json"
contains "a relative path names the ingested file" '"samples":	1202' "$(cat "$TMP/rel.json")"
status "a name shared by repeats is refused" 2 "$AMDAHL" --store "$S" pyspy top ddp-1x1-scaling-1gpu
contains "…saying why" "2 runs have this name" "$ERR"
status "an unknown RUN" 2 "$AMDAHL" --store "$S" pyspy top no-such-run
contains "…named in the error" "no-such-run: no run" "$ERR"
status "--library with --total is a usage error" 2 "$AMDAHL" --store "$S" pyspy top "$RUN" --library x --total
status "a run without py-spy samples says so" 0 "$AMDAHL" --store "$S" pyspy top 1b4f181879174abfb2088a1d6866d3fc
contains "…and how to link one" "no py-spy samples" "$OUT"
status "pyspy --help" 0 "$AMDAHL" pyspy --help
contains "help names the commands" "amdahl pyspy top RUN" "$OUT"

# --rate: counts / rate
R="$TMP/r.db"
status "ingest with --rate 250" 0 "$AMDAHL" --store "$R" ingest --rate 250 "$PY/perf-collapsed.txt"
near "seconds = 57 samples / 250 Hz" 0.228 "$(q "$R" "SELECT sum(seconds) FROM stack_sample")" 1e-9

# malformed input: error with its place, exit 2, store unchanged
before=$(store_digest "$S")
sed '7s/ [0-9]*$//' "$PY/train-raw.txt" >"$TMP/bad-raw.txt"
status "a line without a count fails the file" 2 "$AMDAHL" --store "$S" ingest "$TMP/bad-raw.txt"
contains "…naming the file and line 7" "bad-raw.txt: line 7: expected 'frame;frame;… COUNT'" "$ERR"
sed '3s/;_bootstrap (/;;_bootstrap (/' "$PY/train-raw.txt" >"$TMP/bad-empty.txt"
status "an empty frame fails the file" 2 "$AMDAHL" --store "$S" ingest --format pyspy-collapsed "$TMP/bad-empty.txt"
contains "…at line 3" "bad-empty.txt: line 3: an empty frame" "$ERR"
/usr/bin/python3 - "$PY/train.chrometrace.json" "$TMP/bad.chrometrace.json" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))
i = next(k for k, e in enumerate(ev) if e["ph"] == "E")
ev[i]["name"] = "not_open"
json.dump(ev, open(sys.argv[2], "w"))
EOF
status "chrometrace: an E that closes nothing open fails" 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.chrometrace.json"
contains "…naming the event" "bad.chrometrace.json: event" "$ERR"
head -c 3000 "$PY/train.chrometrace.json" >"$TMP/cut.chrometrace.json"
status "truncated JSON fails" 2 "$AMDAHL" --store "$S" ingest "$TMP/cut.chrometrace.json"
contains "…with a byte offset" "cut.chrometrace.json: byte" "$ERR"
eq "store unchanged after the failures" "$before" "$(store_digest "$S")"

# a first line longer than the detection head (deep recursion), and the
# recursion rule: a function repeated in a stack counts once in total
D="$TMP/d.db"
/usr/bin/python3 - "$PY/train-raw.txt" "$TMP/deep-raw.txt" <<'EOF2'
import sys
lines = open(sys.argv[1]).read().splitlines()
stack, count = lines[0].rsplit(" ", 1)
frames = stack.split(";")
deep = frames[:3] + frames[3:] * 12  # root frames once, Python frames 12 times
open(sys.argv[2], "w").write(";".join(deep) + " " + count + "\n" + "\n".join(lines[1:]) + "\n")
assert len(lines[0]) < 4096 < len(";".join(deep))
EOF2
status "ingest a file whose first line exceeds 4 KB" 0 "$AMDAHL" --store "$D" ingest "$TMP/deep-raw.txt"
eq "…detected as collapsed stacks" pyspy-collapsed "$(q "$D" "SELECT kind FROM source")"
"$AMDAHL" --store "$D" pyspy top "$TMP/deep-raw.txt" --json -n 0 --total >"$TMP/o.json"
eq "recursive stack: total once per stack = oracle" ok \
  "$(/usr/bin/python3 "$ORACLE" check collapsed "$TMP/deep-raw.txt" "$TMP/o.json" --total)"

# a py-spy file under a run's artifacts belongs to that run
cp -r "$DATA/itwinai-layout" "$TMP/itw"
A="$TMP/itw/mllogs/mlflow/123456789/$RUN/artifacts/py-spy"
mkdir -p "$A" && cp "$PY/perf-collapsed.txt" "$A/rank0.txt"
L="$TMP/l.db"
status "ingest a sweep with py-spy output in a run's artifacts" 0 "$AMDAHL" --store "$L" ingest "$TMP/itw"
eq "the artifact's samples are linked to its run" "$RUN" \
  "$(q "$L" "SELECT DISTINCT ext_id FROM stack_sample JOIN run ON run.id=run_id")"
status "pyspy top by the run's id" 0 "$AMDAHL" --store "$L" pyspy top "$RUN" --json
read -r perf_n _ < <(/usr/bin/python3 "$ORACLE" total collapsed "$PY/perf-collapsed.txt")
contains "…finds them" "\"samples\":	$perf_n," "$OUT"
status "pyspy top without RUN is a usage error" 2 "$AMDAHL" --store "$S" pyspy top
contains "…listing the runs that have samples" "runs with py-spy samples: ddp-1x1-scaling-1gpu ($RUN)" "$ERR"

# gzipped files are read through zlib (the chrometrace is streamed)
G="$TMP/g.db"
gzip -c "$PY/train.chrometrace.json" >"$TMP/train.chrometrace.json.gz"
status "ingest a gzipped chrometrace" 0 "$AMDAHL" --store "$G" ingest "$TMP/train.chrometrace.json.gz"
eq "…detected and read whole" "pyspy-chrometrace $ct_n" \
  "$(q "$G" "SELECT kind FROM source") $(q "$G" "SELECT sum(samples) FROM stack_sample")"
