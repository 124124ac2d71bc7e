# trace.sh — PyTorch profiler traces: every real trace in testdata/
# (8-rank CPU DDP over gloo, H100 CUDA) ingested and compared, to the
# nanosecond, with tests/oracle/trace_oracle.py's independent reading;
# linking to runs, rank sources, `trace show`, and bad input.
. "$AMDAHL_ROOT/tests/e2e/lib.sh"
. "$AMDAHL_ROOT/tests/oracle/trace_dump.sh"
ORACLE="/usr/bin/python3 $AMDAHL_ROOT/tests/oracle/trace_oracle.py"
DB="$TMP/a.db"
CPU="$DATA/cpu-strong-scaling/mlruns"
GPU="$DATA/gpu-batch-sweep/mlruns"

status "ingest the CPU and GPU sweeps with their traces" 0 "$AMDAHL" --store "$DB" ingest -j 2 "$CPU" "$GPU"
n_files=$(find "$CPU" "$GPU" -name '*.pt.trace.json.gz' | wc -l)
eq "one stored trace per trace file" "$n_files" "$(q "$DB" 'SELECT count(*) FROM trace')"

# every trace: all stored numbers equal the oracle's
bad=0
for f in $(find "$CPU" "$GPU" -name '*.pt.trace.json.gz' | sort); do
  dump_trace "$DB" "$f" >"$TMP/store.txt"
  $ORACLE "$f" >"$TMP/oracle.txt"
  if ! cmp -s "$TMP/store.txt" "$TMP/oracle.txt"; then
    bad=$((bad + 1))
    fail "stored summary of $(basename "$f") equals the oracle's" "$(diff "$TMP/store.txt" "$TMP/oracle.txt" | head -5)"
  fi
done
eq "all $n_files traces: window, phases, steps, ops (count/total/self/min/max), collectives equal the oracle" 0 "$bad"

# the 8-rank DDP run: linked, one trace per rank, world size and backend
RUN=05cf34910a624beb8c790ed12d3403cf
eq "8-rank run: ranks 0..7 linked to the run" "0 1 2 3 4 5 6 7" \
  "$(q "$DB" "SELECT group_concat(rank, ' ') FROM (SELECT t.rank FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='$RUN' ORDER BY t.rank)")"
eq "8-rank run: world size 8, gloo, CPU-only" "8|gloo|0|cpu" \
  "$(q "$DB" "SELECT DISTINCT world_size, backend, has_gpu, device FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='$RUN'")"
f0=$(ls "$CPU"/4/$RUN/artifacts/traces/rank0.*)
# absolute time: baseTimeNanoseconds + ts lands inside the run's MLflow start/end (ms)
eq "trace window lies within the MLflow run's start and end" 1 \
  "$(q "$DB" "SELECT t.start_ns/1000000 >= r.start_ms AND t.end_ns/1000000 <= r.end_ms FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='$RUN' AND t.rank=0")"
eq "steps of rank 0 are ProfilerStep#2..#4" "2 3 4" \
  "$(q "$DB" "SELECT group_concat(step, ' ') FROM trace_step s JOIN trace t ON t.id=s.trace_id JOIN run r ON r.id=t.run_id WHERE r.ext_id='$RUN' AND t.rank=0")"
eq "GPU traces carry the H100 and CUDA kernel time" "$(find "$GPU" -name '*.pt.trace.json.gz' | wc -l)|NVIDIA H100 80GB HBM3" \
  "$(q "$DB" "SELECT count(*), min(device) FROM trace WHERE has_gpu=1 AND (SELECT ns FROM trace_phase p JOIN dict d ON d.id=p.phase_id WHERE p.trace_id=trace.id AND d.s='compute') > 0")"

# trace show
status "trace show by run id" 0 "$AMDAHL" --store "$DB" trace show "$RUN"
contains "trace show: rank 7 of 8" "rank 7 of 8: gloo, cpu" "$OUT"
contains "trace show: step list" "steps: #2 " "$OUT"
status "trace show --rank 3 --json -n 4" 0 "$AMDAHL" --store "$DB" trace show "$RUN" --rank 3 --json -n 4
got=$(printf '%s' "$OUT" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["traces"]; print(len(t), t[0]["rank"], len(t[0]["top_ops"]), t[0]["phases_ns"]["compute"], t[0]["start_ns"])')
want=$(q "$DB" "SELECT '1 3 4 ' || (SELECT ns FROM trace_phase p JOIN dict d ON d.id=p.phase_id WHERE p.trace_id=t.id AND d.s='compute') || ' ' || t.start_ns FROM trace t JOIN run r ON r.id=t.run_id WHERE r.ext_id='$RUN' AND t.rank=3")
eq "trace show --json: one trace, rank 3, 4 ops, exact ns" "$want" "$got"
top=$(printf '%s' "$OUT" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["traces"][0]["top_ops"][0]["name"])')
f3=$(ls "$CPU"/4/$RUN/artifacts/traces/rank3.*)
want=$($ORACLE "$f3" | awk -F'\t' '/^op /{split($3,a," "); if ($2!="Trace" && $2!="gpu_user_annotation") print a[3] "\t" substr($1,4)}' | sort -k1,1nr | head -1 | cut -f2)
eq "trace show: top op by self time is the oracle's" "$want" "$top"
status "trace show by run name" 0 "$AMDAHL" --store "$DB" trace show ddp-n8
contains "trace show by name: the launch of ddp-n8 that has traces" "($RUN): 8 traces" "$OUT"
status "trace show: unknown run" 2 "$AMDAHL" --store "$DB" trace show no-such-run
contains "trace show: unknown run says so" "no run named" "$ERR"
status "trace show --help" 0 "$AMDAHL" trace --help

# idempotent
status "ingesting again" 0 "$AMDAHL" --store "$DB" ingest "$CPU"
contains "ingesting again adds nothing" "0 added, 0 replaced" "$OUT"

# rank from the file name, else --rank; no distributedInfo
/usr/bin/python3 - "$f0" "$TMP" <<'EOF'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
del d["distributedInfo"]
for name in ("worker_3.123.pt.trace.json", "job_rank5.pt.trace.json", "plain.pt.trace.json"):
    d["traceName"] = name  # distinct bytes: the store skips duplicates
    json.dump(d, open(f"{sys.argv[2]}/{name}", "w"))
EOF
D2="$TMP/b.db"
status "ingest a trace named worker_3.*" 0 "$AMDAHL" --store "$D2" ingest "$TMP/worker_3.123.pt.trace.json"
status "ingest a trace named *_rank5.*" 0 "$AMDAHL" --store "$D2" ingest "$TMP/job_rank5.pt.trace.json"
status "ingest a trace with no rank anywhere, --rank 6" 0 "$AMDAHL" --store "$D2" ingest --rank 6 "$TMP/plain.pt.trace.json"
eq "ranks from worker_3, _rank5 and --rank 6; world size unknown" "3||5||6|" \
  "$(q "$D2" "SELECT group_concat(rank || '|' || coalesce(world_size,''), '|') FROM (SELECT * FROM trace ORDER BY rank)")"
dump_trace "$D2" "$TMP/plain.pt.trace.json" | grep -v '^trace' >"$TMP/s.txt"
$ORACLE "$f0" | grep -v '^trace' >"$TMP/o.txt"
eq "uncompressed .json reads the same as its .json.gz" "" "$(diff "$TMP/s.txt" "$TMP/o.txt" | head -3)"

# bad input: one line naming the file and byte offset, exit 2, store unchanged
before=$(store_digest "$DB")
zcat "$f0" >"$TMP/full.json"
size=$(stat -c %s "$TMP/full.json")
head -c $((size / 2)) "$TMP/full.json" >"$TMP/cut.pt.trace.json"
gz=$(stat -c %s "$f0")
head -c $((gz / 2)) "$f0" >"$TMP/cut.pt.trace.json.gz"
printf '{"schemaVersion": 1, "deviceProperties": [], "displayTimeUnit": "ms"}\n' >"$TMP/noevents.pt.trace.json"
: >"$TMP/empty.pt.trace.json"
printf '{"schemaVersion": 1, "traceEvents": [{"ph": "X", "name": "a", "ts": "soon", "dur": 1}]}' >"$TMP/badts.pt.trace.json"
for c in "cut.pt.trace.json:truncated JSON:byte $((size / 2))" \
         "cut.pt.trace.json.gz:truncated gzip:byte " \
         "noevents.pt.trace.json:no traceEvents:byte " \
         "empty.pt.trace.json:empty file:byte 0" \
         "badts.pt.trace.json:not a number of microseconds:byte "; do
  file=${c%%:*}; rest=${c#*:}; what=${rest%%:*}; where=${rest#*:}
  status "$file: exit 2" 2 "$AMDAHL" --store "$DB" ingest "$TMP/$file"
  contains "$file: says '$what'" "$what" "$ERR"
  contains "$file: names the file and '$where'" "$TMP/$file: $where" "$ERR"
  eq "$file: one line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
done
eq "store unchanged by the bad traces" "$before" "$(store_digest "$DB")"

# itwinai's layout: profiler-traces/<run name>/torch-traces/worker_<rank>.*
mkdir -p "$TMP/itw/profiler-traces/ddp-n8/torch-traces"
cp "$TMP/worker_3.123.pt.trace.json" "$TMP/itw/profiler-traces/ddp-n8/torch-traces/worker_3.1795347937.pt.trace.json"
status "ingest an itwinai torch-traces folder" 0 "$AMDAHL" --store "$DB" ingest "$TMP/itw"
eq "itwinai trace linked to the run named in its folder, rank from worker_3" "ddp-n8|3" \
  "$(q "$DB" "SELECT r.name, t.rank FROM trace t JOIN run r ON r.id=t.run_id JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%torch-traces%'")"

# a sweep of cut points through a real trace: each is refused cleanly
# (exit 2, the file and a byte offset), never a crash, store unchanged
before=$(store_digest "$DB")
bad=0
for frac in 1 3 7 13 29 41 53 67 79 89 97 99; do
  cut=$((size * frac / 100))
  head -c "$cut" "$TMP/full.json" >"$TMP/cut$frac.pt.trace.json"
  "$AMDAHL" --store "$DB" ingest "$TMP/cut$frac.pt.trace.json" >/dev/null 2>"$TMP/err"; rc=$?
  grep -q "cut$frac.pt.trace.json: byte [0-9]" "$TMP/err" && [ $rc = 2 ] || { bad=$((bad + 1)); cat "$TMP/err"; }
done
eq "12 cut points: exit 2 with the byte offset each time" 0 "$bad"
eq "store unchanged by the cut traces" "$before" "$(store_digest "$DB")"
