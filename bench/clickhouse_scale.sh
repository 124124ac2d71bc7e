#!/bin/bash
# clickhouse_scale.sh BUILD_DIR — issue 17's rows, measured in one run on
# a private clickhouse-server (bench/ch_server.sh):
#   - a BENCH_CH_TRACE_MB (400) MB trace (testdata's H100 rank trace, steps
#     repeated: bench/gen_readers.py) ingested with --events into SQLite
#     (the reference) and into ClickHouse side by side: wall, amdahl's CPU,
#     peak RSS, events kept (BENCH_CH_TRACE_MB=0 leaves the row out);
#   - the scale row: BENCH_CH_RUNS (20; the issue's size is 1000) runs ×
#     10 metrics × 5,000 steps (bench/gen_sweep.py from the real n=8 run),
#     ingested by 4 `amdahl ingest -j BENCH_CH_JOBS` (2) processes at once
#     (a quarter of the runs each) into ClickHouse and, the reference,
#     into one SQLite store: points per second of wall time, CPU seconds
#     of the 4 amdahl processes and of the server, and disk per point
#     (system.parts of metric_point; the SQLite file).
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

runs=${BENCH_CH_RUNS:-20} jobs=${BENCH_CH_JOBS:-2}
/usr/bin/python3 bench/gen_sweep.py "$work/pts" "$runs" 1 10 5000 >/dev/null
exp="$work/pts/mlruns/4"
# four disjoint quarters of the runs, each a directory of its own experiment
for k in 0 1 2 3; do mkdir -p "$work/q$k/mlruns/4" && cp "$exp/meta.yaml" "$work/q$k/mlruns/4/"; done
i=0
for d in "$exp"/*/; do mv "$d" "$work/q$((i % 4))/mlruns/4/"; i=$((i + 1)); done
points=$((runs * 10 * 5000))
echo "metric points: $runs runs × 10 metrics × 5,000 steps = $points points, 4 processes × -j $jobs; load $(cut -d' ' -f1-3 /proc/loadavg)"

# four LABEL STORE: the 4 ingests at once into STORE; one line: wall,
# points/s, CPU-s of the 4 processes (and of the server, for ClickHouse)
four() {
  local label=$1 store=$2 s e c0 c1 k fail=0 pids=()
  c0=$(server_cpu)
  s=$(date +%s.%N)
  for k in 0 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$work/c$k" "$bin" --store "$store" ingest -q -j "$jobs" \
      "$work/q$k/mlruns" >"$work/o$k" 2>&1 &
    pids+=($!)
  done
  for k in "${pids[@]}"; do wait "$k" || fail=1; done
  e=$(date +%s.%N)
  c1=$(server_cpu)
  [ $fail = 0 ] || { cat "$work"/o?; exit 2; }
  cat "$work"/c? | awk -v l="$label" -v s="$s" -v e="$e" -v p="$points" -v sc="$c0 $c1" \
    -v srv="$([ "${store#clickhouse}" != "$store" ] && echo 1 || echo 0)" '
    { cpu += $1 + $2 } END { split(sc, c, " ");
    printf "  %-36s %8.2f s wall, %9.0f points/s; amdahl %7.2f CPU-s (%3.0f%%)", l, e - s, p / (e - s), cpu, 100 * cpu / (e - s)
    if (srv) printf ", server %7.2f CPU-s", c[2] - c[1]
    printf "\n" }'
}
four "ingest, SQLite (reference)" "$work/pts.db"
four "ingest, ClickHouse" "$ch/pts"
stored=$(q 'SELECT count() FROM pts.metric_point')
disk=$(q "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'pts' AND table = 'metric_point' AND active")
parts=$(q "SELECT count() FROM system.parts WHERE database = 'pts' AND table = 'metric_point' AND active")
sq_stored=$(sqlite3 "$work/pts.db" ".load $root/$build/amdahl_metric.so" 'SELECT count(*) FROM metric_point')
awk -v n="$stored" -v d="$disk" -v np="$parts" -v sn="$sq_stored" -v sd="$(stat -c %s "$work/pts.db")" 'BEGIN {
  printf "  stored: ClickHouse %d points, %.2f bytes on disk per point (metric_point, %d active parts);", n, d / (n > 0 ? n : 1), np
  printf " SQLite %d points, %.2f bytes per point (whole file)\n", sn, sd / (sn > 0 ? sn : 1) }'
