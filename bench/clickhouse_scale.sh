#!/bin/bash
# clickhouse_scale.sh BUILD_DIR — issue 17's rows, measured in one run on
# a private clickhouse-server (tests/lib/clickhouse.sh: own directory and
# ports, started and stopped by its pid):
#   - a BENCH_CH_TRACE_MB (400) MB trace (testdata's H100 rank trace, steps
#     repeated: bench/gen_readers.py) ingested with --events into SQLite
#     (the reference) and into ClickHouse side by side: wall, amdahl's CPU,
#     peak RSS, events kept;
#   - the scale row: BENCH_CH_RUNS (20; the issue's size is 1000) runs ×
#     10 metrics × 5,000 steps (bench/gen_sweep.py from the real n=8 run),
#     ingested by 4 `amdahl ingest` processes at once (a quarter of the
#     runs each) into ClickHouse: points per second of wall time and the
#     server's disk per point (system.parts of metric_point).
# Skipped with a message where no server can be run.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/$build/amdahl"
ch_script="$root/tests/lib/clickhouse.sh"
export AMDAHL_TEMPLATES="$root/templates" AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
if ! "$ch_script" have >/dev/null 2>&1; then
  echo "clickhouse_scale: skipped (no clickhouse-server here; Debian package clickhouse-server)"
  exit 0
fi
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap '"$ch_script" stop "$work/server" >/dev/null 2>&1; rm -rf "$work"' EXIT
mkdir -p "$work/server"
port=$("$ch_script" start "$work/server")
ch="clickhouse://amdahl@127.0.0.1:$port"
q() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$port/"; }

row() { # LABEL CMD... : wall, amdahl's CPU, peak RSS of one command
  local label=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk -v l="$label" '{ printf "  %-44s %7.2f s wall %7.2f s CPU %6.0f MB RSS\n", l, $1, $2 + $3, $4 / 1024 }' "$work/t"
}

mb=${BENCH_CH_TRACE_MB:-400}
read -r events _ <<<"$(/usr/bin/python3 bench/gen_readers.py trace "$work/big.pt.trace.json" "$mb")"
echo "clickhouse_scale: clickhouse-server $(q 'SELECT version()'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "trace --events: $(($(stat -c %s "$work/big.pt.trace.json") / 1000000)) MB, $events events"
row "ingest --events, SQLite (reference)" "$bin" --store "$work/s.db" ingest -q --events "$work/big.pt.trace.json"
row "ingest --events, ClickHouse" "$bin" --store "$ch/ev" ingest -q --events "$work/big.pt.trace.json"
echo "  trace_event rows: SQLite $(sqlite3 "$work/s.db" 'SELECT count(*) FROM trace_event'), ClickHouse $(q 'SELECT count() FROM ev.trace_event')"
rm -f "$work/big.pt.trace.json" "$work/s.db"*

runs=${BENCH_CH_RUNS:-20}
/usr/bin/python3 bench/gen_sweep.py "$work/pts" "$runs" 1 10 5000 >/dev/null
exp="$work/pts/mlruns/4"
# four disjoint quarters of the runs, each a directory of its own experiment
for k in 0 1 2 3; do mkdir -p "$work/q$k/mlruns/4" && cp "$exp/meta.yaml" "$work/q$k/mlruns/4/"; done
i=0
for d in "$exp"/*/; do mv "$d" "$work/q$((i % 4))/mlruns/4/"; i=$((i + 1)); done
points=$((runs * 10 * 5000))
echo "metric points: $runs runs × 10 metrics × 5,000 steps = $points points, 4 processes"
s=$(date +%s.%N)
pids=()
for k in 0 1 2 3; do
  "$bin" --store "$ch/pts" ingest -q "$work/q$k/mlruns" >"$work/o$k" 2>&1 &
  pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
e=$(date +%s.%N)
[ $fail = 0 ] || { cat "$work"/o?; exit 2; }
stored=$(q 'SELECT count() FROM pts.metric_point')
disk=$(q "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'pts' AND table = 'metric_point' AND active")
awk -v s="$s" -v e="$e" -v p="$points" -v n="$stored" -v d="$disk" 'BEGIN {
  printf "  %-44s %7.2f s wall, %.0f points/s; %d stored; %.2f bytes on disk per point\n",
    "ingest, 4 processes, ClickHouse", e - s, p / (e - s), n, d / (n > 0 ? n : 1) }'
