#!/bin/bash
# trace_cores.sh BUILD_DIR — one trace on every core (issue 38 item 1):
# the whole `amdahl ingest` of the large trace (~450-520 MB, made as
# trace.sh makes it) as .json and .json.gz, and of the small H100
# .json.gz, run BENCH_REPS times (default 3), the rows of one repetition
# run back to back: on every core the process may use (the parallel parse
# of lib/ingest/trace/trace_par.h), on one thread (AMDAHL_TRACE_WORKERS=1:
# round two's reader), on one core (`taskset -c 0`), beside `zcat` of the
# same gzip and yajl alone on the raw JSON (the one-thread floor).
# Medians of wall and CPU seconds; MB/s of JSON per wall second; the
# ratios the issue asks for: ingest wall / zcat wall (target <= 0.75 for
# the raw trace against its gzip, <= 1.0 for a .json.gz), one-core wall /
# all-core wall (target >= 1.7), peak RSS. The load average is printed
# before and after: on a shared machine the wall figures say little.
. "$(dirname "$0")/common.sh"
floor="$build/bench/yajl_floor"
make -s O="$build" "$floor" || exit 2
reps=${BENCH_REPS:-3}
amdahl="$root/$build/amdahl"

h100=$(ls -S testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | head -1)
copies=${BENCH_COPIES:-57}
echo "making a larger trace: $copies copies of $(basename "$h100") with shifted timestamps ..."
/usr/bin/python3 bench/gen_big_trace.py "$h100" "$work/big.pt.trace.json" "$copies"
gzip -k -6 "$work/big.pt.trace.json"
cp "$h100" "$work/small.pt.trace.json.gz"
zcat "$h100" >"$work/small.pt.trace.json"

# one NAME CMD... — a run: appends "NAME wall cpu rss_kb" to $work/runs
one() {
  local name=$1; shift
  rm -f "$work/s.db"*
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk -v n="$name" '{printf "%s %.3f %.3f %d\n", n, $1, $2 + $3, $4}' "$work/t" >>"$work/runs"
}
# median NAME FIELD — the median of a field (2 wall, 3 cpu, 4 rss) of NAME's runs
median() {
  awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$work/runs" | sort -g |
    awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# threads NAME ENV... — one ingest of the raw trace, its threads' time on
# a CPU and waiting for one (/proc/PID/task/*/schedstat, read until the
# process ends): "NAME: threads T, on-CPU s (longest thread, all), waiting
# for a CPU s (all)". The longest thread's on-CPU time is the wall time
# two free cores would need for the parse (the hash runs before it).
threads() {
  local name=$1 pid t; shift
  rm -f "$work/s.db"*
  env "$@" "$amdahl" --store "$work/s.db" ingest -q "$work/big.pt.trace.json" 2>/dev/null & pid=$!
  declare -A last=()
  while kill -0 "$pid" 2>/dev/null; do
    for t in /proc/"$pid"/task/*; do last[${t##*/}]=$(cat "$t/schedstat" 2>/dev/null) || true; done
    sleep 0.2
  done
  wait "$pid" || true
  for t in "${!last[@]}"; do echo "${last[$t]}"; done | awk -v n="$name" '
    NF == 3 { k++; run += $1; wait += $2; if ($1 > max) max = $1 }
    END { printf "%-28s threads %d, on a CPU %.2f s longest thread, %.2f s all; waiting for a CPU %.2f s\n",
          n ":", k, max / 1e9, run / 1e9, wait / 1e9 }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); CPUs this process may use: $(nproc)"
: >"$work/runs"
for r in $(seq "$reps"); do
  for f in big.pt.trace.json big.pt.trace.json.gz small.pt.trace.json.gz; do
    one "$f:all-cores" "$amdahl" --store "$work/s.db" ingest -q "$work/$f"
    one "$f:one-thread" env AMDAHL_TRACE_WORKERS=1 "$amdahl" --store "$work/s.db" ingest -q "$work/$f"
    one "$f:one-core" taskset -c 0 "$amdahl" --store "$work/s.db" ingest -q "$work/$f"
    case $f in
      *.gz) one "$f:zcat" sh -c "zcat '$work/$f' >/dev/null" ;;
      *) one "$f:yajl-floor" "$floor" "$work/$f"
         one "$f:zcat-of-gzip" sh -c "zcat '$work/$f.gz' >/dev/null" ;;
    esac
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

printf '\n%-24s %-28s %8s %8s %8s %8s\n' file "run (median of $reps)" "wall s" "cpu s" "MB/s" "RSS MB"
for f in big.pt.trace.json big.pt.trace.json.gz small.pt.trace.json.gz; do
  bytes=$(stat -c %s "$work/${f%.gz}")
  label="$f ($(awk -v b="$bytes" 'BEGIN{printf "%.1f", b / 1e6}') MB)"
  for kind in all-cores one-thread one-core yajl-floor zcat-of-gzip zcat; do
    grep -q "^$f:$kind " "$work/runs" || continue
    w=$(median "$f:$kind" 2); c=$(median "$f:$kind" 3); m=$(median "$f:$kind" 4)
    printf '%-24s %-28s %8.2f %8.2f %8.0f %8.1f\n' "$label" "$kind" "$w" "$c" \
      "$(awk -v b="$bytes" -v s="$w" 'BEGIN{print b / 1e6 / (s > 0 ? s : 0.001)}')" "$(awk -v k="$m" 'BEGIN{print k / 1024}')"
    label=""
  done
  all=$(median "$f:all-cores" 2); core=$(median "$f:one-core" 2)
  ref=zcat; grep -q "^$f:zcat-of-gzip " "$work/runs" && ref=zcat-of-gzip
  z=$(median "$f:$ref" 2)
  awk -v a="$all" -v c="$core" -v z="$z" -v r="$ref" 'BEGIN{
    printf "%24s one-core / all-cores %.2fx (target >= 1.7); all-cores / %s %.2fx\n", "", c / a, r, a / z }'
done
echo
echo "where the threads' time goes on the raw trace (one run each, this run):"
threads all-cores AMDAHL_TRACE_WORKERS="$(nproc)"
threads one-thread AMDAHL_TRACE_WORKERS=1
echo "targets: the raw trace >= 450 MB/s wall on 2 cores, <= 0.75x zcat of its gzip; a .json.gz <= 1.0x zcat;"
echo ">= 1.7x faster on 2 cores than on 1; RSS < 64 MB per worker. CPU s is user+sys of all threads."
