#!/bin/bash
# py-spy on the public samples: a speedscope file from py-spy 0.4.2, a
# `py-spy dump`, and perf collapsed stacks. Detection by content, exact
# totals (sum of samples = the file's total, computed by Python), and
# top self/total/per-thread rows and the trie against the Python oracle.
. "$AMDAHL_ROOT/tests/e2e/lib.sh"
S="$TMP/s.db"
P="$PUBLIC/pyspy"
ORACLE="$AMDAHL_ROOT/tests/e2e/pyspy_oracle.py"
SS="$P/cs336-bpe.speedscope.json"
DUMP="$P/calendarbot.dump.txt"
PERF="$P/flamegraph-perf-collapsed-pid.txt"

status "ingest the public py-spy samples" 0 "$AMDAHL" --store "$S" ingest "$P"
eq "three files added" "3 added, 0 replaced, 0 unchanged, 0 failed; 0 other files skipped" "$OUT"
kind() { q "$S" "SELECT kind FROM source WHERE path LIKE '%/$1'"; }
eq "speedscope detected" pyspy-speedscope "$(kind cs336-bpe.speedscope.json)"
eq "dump text detected" pyspy-dump "$(kind calendarbot.dump.txt)"
eq "perf collapsed detected" pyspy-collapsed "$(kind flamegraph-perf-collapsed-pid.txt)"

total() { q "$S" "SELECT sum(samples) FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '%/$1'"; }
seconds() { q "$S" "SELECT printf('%.6f', sum(seconds)) FROM stack_sample JOIN source ON source.id=source_id WHERE path LIKE '%/$1'"; }
want=$(/usr/bin/python3 - "$SS" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(len(p["samples"]) for p in d["profiles"] if p["type"] == "sampled"),
      "%.6f" % sum(sum(p["weights"]) for p in d["profiles"]))
EOF
)
eq "speedscope: samples = sample entries, seconds = sum of weights" "$want" \
  "$(total cs336-bpe.speedscope.json) $(seconds cs336-bpe.speedscope.json)"
eq "speedscope: one thread per profile" 4 \
  "$(q "$S" "SELECT count(DISTINCT thread_id) FROM stack_sample JOIN source ON source.id=source_id WHERE kind='pyspy-speedscope'")"
want=$(/usr/bin/python3 -c '
import sys
print(sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]) if l.strip()))' "$PERF")
eq "perf collapsed: samples = sum of the counts" "$want" "$(total flamegraph-perf-collapsed-pid.txt)"
near "perf collapsed: seconds = samples / 100 Hz (py-spy's default)" "$(echo "$want / 100" | bc -l)" \
  "$(seconds flamegraph-perf-collapsed-pid.txt)" 1e-6
want=$(/usr/bin/python3 - "$DUMP" <<'EOF'
import re, sys
threads, stacks = 0, []
for line in open(sys.argv[1]):
    if line.startswith("Thread "):
        threads += 1
        stacks.append([])
    elif re.match(r"    \S", line):
        stacks[-1].insert(0, line.strip())
print(threads, len({tuple(s[:d]) for s in stacks for d in range(1, len(s) + 1)}))
EOF
)
eq "dump: one sample per thread; trie nodes = distinct root paths" "$want" \
  "$(total calendarbot.dump.txt) $(q "$S" "SELECT count(*) FROM stack_node JOIN source ON source.id=source_id WHERE kind='pyspy-dump'")"

check() { # DESC FORMAT FILE [top options]
  local desc=$1 fmt=$2 file=$3; shift 3
  "$AMDAHL" --store "$S" pyspy top "$file" --json -n 0 "$@" >"$TMP/o.json"
  eq "$desc" ok "$(/usr/bin/python3 "$ORACLE" check "$fmt" "$file" "$TMP/o.json" "$@" 2>&1)"
}
check "speedscope: self = oracle" speedscope "$SS"
check "speedscope: total = oracle" speedscope "$SS" --total
check "speedscope: per thread = oracle" speedscope "$SS" --per-thread --total
check "speedscope: --library multiprocessing = oracle" speedscope "$SS" --library multiprocessing
check "dump: self = oracle" dump "$DUMP"
check "dump: per thread total = oracle" dump "$DUMP" --per-thread --total
check "perf collapsed: self = oracle" collapsed "$PERF"
check "perf collapsed: total = oracle" collapsed "$PERF" --total
for x in "speedscope $SS" "dump $DUMP" "collapsed $PERF"; do
  set -- $x
  "$AMDAHL" --store "$S" pyspy trie "$2" --json >"$TMP/t.json"
  eq "$1: trie = stacks merged by path" ok "$(/usr/bin/python3 "$ORACLE" trie "$1" "$2" "$TMP/t.json" 2>&1)"
done

# the speedscope's rate: --rate overrides the 1/weight py-spy wrote
R="$TMP/r.db"
status "speedscope with --rate 200" 0 "$AMDAHL" --store "$R" ingest --rate 200 "$SS"
eq "weights of 0.01 s at 200 Hz: samples = seconds × rate" \
  "$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(round(w*200) for p in d["profiles"] for w in p["weights"]))' "$SS")" \
  "$(q "$R" "SELECT sum(samples) FROM stack_sample")"

# malformed files: one-line error with the place, exit 2, store unchanged
before=$(store_digest "$S")
/usr/bin/python3 - "$SS" "$TMP/bad.speedscope.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
d["profiles"][1]["samples"][5][2] = len(d["shared"]["frames"])
json.dump(d, open(sys.argv[2], "w"))
EOF2
status "speedscope: a frame index past shared.frames fails" 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.speedscope.json"
contains "…naming the sample" "bad.speedscope.json: profiles[1].samples[5]: frame index out of shared.frames" "$ERR"
sed '12s/^    /  /' "$DUMP" >"$TMP/bad.dump.txt"
status "dump: a line out of place fails" 2 "$AMDAHL" --store "$S" ingest "$TMP/bad.dump.txt"
contains "…at its line" "bad.dump.txt: line 12: expected a Process, Thread or indented frame line" "$ERR"
eq "store unchanged" "$before" "$(store_digest "$S")"

# dump --locals: the argument and local lines under a frame are skipped
awk '{print} /^    _flush_buffer/ {print "        Arguments:"; print "            self: <PerformanceLogger at 0x7f3a2c1b5740>"; print "        Locals:"; print "            batch: [1, 2, 3]"}' "$DUMP" >"$TMP/locals.dump.txt"
status "ingest a dump with --locals" 0 "$AMDAHL" --store "$S" ingest "$TMP/locals.dump.txt"
"$AMDAHL" --store "$S" pyspy top "$TMP/locals.dump.txt" --json -n 0 --per-thread --total >"$TMP/o.json"
eq "locals dump: same rows as the plain dump (oracle)" ok \
  "$(/usr/bin/python3 "$ORACLE" check dump "$DUMP" "$TMP/o.json" --per-thread --total)"

# older py-spy speedscope: unit "none", weight 1 per sample; seconds come
# from the rate (py-spy's default 100 Hz, or --rate)
/usr/bin/python3 - "$SS" "$TMP/old.speedscope.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["profiles"]:
    p["unit"] = "none"
    p["weights"] = [1 for _ in p["weights"]]
json.dump(d, open(sys.argv[2], "w"))
EOF2
want=$(/usr/bin/python3 -c 'import json,sys; print(sum(len(p["samples"]) for p in json.load(open(sys.argv[1]))["profiles"]))' "$SS")
N="$TMP/n.db"
status "unit none speedscope" 0 "$AMDAHL" --store "$N" ingest "$TMP/old.speedscope.json"
eq "unit none: samples = the weights' sum" "$want" "$(q "$N" "SELECT sum(samples) FROM stack_sample")"
near "unit none: seconds = samples / 100 Hz" "$(echo "$want / 100" | bc -l)" "$(q "$N" "SELECT sum(seconds) FROM stack_sample")" 1e-6
N2="$TMP/n2.db"
status "unit none speedscope with --rate 250" 0 "$AMDAHL" --store "$N2" ingest --rate 250 "$TMP/old.speedscope.json"
near "…seconds = samples / 250 Hz" "$(echo "$want / 250" | bc -l)" "$(q "$N2" "SELECT sum(seconds) FROM stack_sample")" 1e-6
