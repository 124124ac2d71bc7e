#!/bin/bash
# clickhouse_scale.sh BUILD_DIR — issue 17's rows, measured in one run on
# a private clickhouse-server (bench/ch_server.sh):
#   - a BENCH_CH_TRACE_MB (400) MB trace (testdata's H100 rank trace, steps
#     repeated: bench/gen_readers.py) ingested with --events into SQLite
#     (the reference) and into ClickHouse side by side: wall, amdahl's CPU,
#     peak RSS, events kept (BENCH_CH_TRACE_MB=0 leaves the row out);
#   - the scale rows: BENCH_CH_RUNS (20; the issue's size is 1000) runs ×
#     10 metrics × 5,000 steps (bench/gen_sweep.py from the real n=8 run),
#     ingested by one `amdahl ingest -j BENCH_CH_JOBS` (2) (and again
#     with ?compress=gzip), then by
#     BENCH_CH_WRITERS (8) such processes at once (a part of the runs
#     each), into ClickHouse and, the reference, into a SQLite store:
#     points per second of wall time (issue 37's target: 1 M/s from one
#     client), CPU seconds of the amdahl processes
#     and of the server, and disk per point (system.parts of
#     metric_point; the SQLite file);
#   - `stats --metric train_loss` of that sweep: wall beside SQLite, and
#     the rows and bytes the server sent (system.query_log) beside the
#     sweep's points, which every read loaded before issue 37.
# Skipped with a message where no server can be run.
. "$(dirname "$0")/common.sh"
. "$root/bench/ch_server.sh"

row() { # LABEL CMD... : wall, amdahl's CPU, peak RSS of one command
  local label=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk -v l="$label" '{ printf "  %-44s %7.2f s wall %7.2f s CPU %6.0f MB RSS\n", l, $1, $2 + $3, $4 / 1024 }' "$work/t"
}

echo "clickhouse_scale: clickhouse-server $(q 'SELECT version()'); load $(cut -d' ' -f1-3 /proc/loadavg)"
mb=${BENCH_CH_TRACE_MB:-400}
if [ "$mb" != 0 ]; then
  read -r events _ <<<"$(/usr/bin/python3 bench/gen_readers.py trace "$work/big.pt.trace.json" "$mb")"
  echo "trace --events: $(($(stat -c %s "$work/big.pt.trace.json") / 1000000)) MB, $events events"
  row "ingest --events, SQLite (reference)" "$bin" --store "$work/s.db" ingest -q --events "$work/big.pt.trace.json"
  row "ingest --events, ClickHouse" "$bin" --store "$ch/ev" ingest -q --events "$work/big.pt.trace.json"
  echo "  trace_event rows: SQLite $(sqlite3 "$work/s.db" 'SELECT count(*) FROM trace_event'), ClickHouse $(q 'SELECT count() FROM ev.trace_event')"
  rm -f "$work/big.pt.trace.json" "$work/s.db"*
fi

runs=${BENCH_CH_RUNS:-20} jobs=${BENCH_CH_JOBS:-2} writers=${BENCH_CH_WRITERS:-8}
/usr/bin/python3 bench/gen_sweep.py "$work/pts" "$runs" 1 10 5000 >/dev/null
exp="$work/pts/mlruns/4"
# the runs in $writers disjoint parts, each a directory of its own experiment
for k in $(seq 0 $((writers - 1))); do mkdir -p "$work/q$k/mlruns/4" && cp "$exp/meta.yaml" "$work/q$k/mlruns/4/"; done
i=0
for d in "$exp"/*/; do cp -r "$d" "$work/q$((i % writers))/mlruns/4/"; i=$((i + 1)); done
points=$((runs * 10 * 5000))
echo "metric points: $runs runs × 10 metrics × 5,000 steps = $points points; one client, then $writers processes × -j $jobs; load $(cut -d' ' -f1-3 /proc/loadavg)"

# writers LABEL STORE K DIR…: K ingests at once into STORE, ingest k of
# DIR k; one line: wall, points/s, CPU-s of the K processes (and of the
# server, for ClickHouse), the largest peak RSS of them (a ClickHouse
# ingest's batches are bounded by the memory they hold: engine.c
# BATCH_HELD; 91 MB at -j 2 before, beside SQLite's in the same run)
ingests() {
  local label=$1 store=$2 nw=$3 s e c0 c1 k fail=0 pids=()
  shift 3
  c0=$(server_cpu)
  s=$(date +%s.%N)
  for k in $(seq 0 $((nw - 1))); do
    /usr/bin/time -f '%U %S %M' -o "$work/c$k" "$bin" --store "$store" ingest -q -j "$jobs" \
      "$1" >"$work/o$k" 2>&1 &
    pids+=($!)
    shift
  done
  for k in "${pids[@]}"; do wait "$k" || fail=1; done
  e=$(date +%s.%N)
  c1=$(server_cpu)
  [ $fail = 0 ] || { cat "$work"/o*; exit 2; }
  for k in $(seq 0 $((nw - 1))); do cat "$work/c$k"; done | awk -v l="$label" -v s="$s" -v e="$e" -v p="$points" -v sc="$c0 $c1" \
    -v srv="$([ "${store#clickhouse}" != "$store" ] && echo 1 || echo 0)" '
    { cpu += $1 + $2; if ($3 > rss) rss = $3 } END { split(sc, c, " ");
    printf "  %-36s %8.2f s wall, %9.0f points/s; amdahl %7.2f CPU-s (%3.0f%%)", l, e - s, p / (e - s), cpu, 100 * cpu / (e - s)
    if (srv) printf ", server %7.2f CPU-s", c[2] - c[1]
    printf "; peak RSS %.0f MB\n", rss / 1024 }'
}
parts=()
for k in $(seq 0 $((writers - 1))); do parts+=("$work/q$k/mlruns"); done
ingests "ingest, 1 client, SQLite (reference)" "$work/one.db" 1 "$work/pts/mlruns"
ingests "ingest, 1 client, ClickHouse" "$ch/one" 1 "$work/pts/mlruns"
# request bodies gzip-compressed (?compress=gzip): the bytes on the wire
# against the CPU to make them; on 127.0.0.1 the wire is free
ingests "ingest, 1 client, ClickHouse ?compress=gzip" "$ch/onegz?compress=gzip" 1 "$work/pts/mlruns"
ingests "ingest, $writers writers, SQLite (reference)" "$work/pts.db" "$writers" "${parts[@]}"
ingests "ingest, $writers writers, ClickHouse" "$ch/pts" "$writers" "${parts[@]}"
stored=$(q 'SELECT count() FROM pts.metric_point')
disk=$(q "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'pts' AND table = 'metric_point' AND active")
parts=$(q "SELECT count() FROM system.parts WHERE database = 'pts' AND table = 'metric_point' AND active")
sq_stored=$(sqlite3 "$work/pts.db" ".load $root/$build/amdahl_metric.so" 'SELECT count(*) FROM metric_point')
awk -v n="$stored" -v d="$disk" -v np="$parts" -v sn="$sq_stored" -v sd="$(stat -c %s "$work/pts.db")" 'BEGIN {
  printf "  stored: ClickHouse %d points, %.2f bytes on disk per point (metric_point, %d active parts);", n, d / (n > 0 ? n : 1), np
  printf " SQLite %d points, %.2f bytes per point (whole file)\n", sn, sd / (sn > 0 ? sn : 1) }'

# What `stats --metric train_loss` of that sweep gets from the server
# (result rows and bytes of its queries, system.query_log): each run's
# value computed by the server (ch_reduce.c amd_ch_run_values_sql) and
# the key sets, no series (round eight; 20 runs x 10 metrics x 10,000
# steps: 600,347 rows / 45.9 MB before, the points of the metrics stats
# reads; 487 / 0.04 MB after); a read used to load every point of the
# sweep, all of its 10 metrics (before issue 37). Wall and amdahl's CPU
# seconds beside SQLite's.
logged() { curl -sS --data-binary "$1" "http://127.0.0.1:$port/"; }
log_total() {
  logged "SYSTEM FLUSH LOGS"
  logged "SELECT sum(result_rows), sum(result_bytes), count() FROM system.query_log WHERE user = 'amdahl' AND type = 2"
}
a=$(log_total)
/usr/bin/time -f '%e s, %U + %S CPU-s' -o "$work/t" "$bin" --store "$ch/pts" stats --metric train_loss >/dev/null
b=$(log_total)
/usr/bin/time -f '%e s, %U + %S CPU-s' -o "$work/t2" "$bin" --store "$work/pts.db" stats --metric train_loss >/dev/null
awk -v a="$a" -v b="$b" -v p="$stored" -v w="$(cat "$work/t")" -v w2="$(cat "$work/t2")" 'BEGIN {
  split(a, x, "\t"); split(b, y, "\t");
  printf "  stats --metric train_loss: %s (SQLite %s); %d result rows, %.2f MB in %d queries from the server; the sweep holds %d points (all of which a read loaded before)\n",
    w, w2, y[1] - x[1], (y[2] - x[2]) / 1e6, y[3] - x[3], p }'
