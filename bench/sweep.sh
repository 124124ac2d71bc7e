#!/bin/bash
# sweep.sh BUILD_DIR — sweep scale: BENCH_SWEEP_RUNS (100; the issue's
# size is 1000) MLflow runs × BENCH_SWEEP_RANKS (64) rank traces each,
# made by bench/gen_sweep.py from the real n=8 run of
# testdata/cpu-strong-scaling, ingested with `ingest -j 2` into a fresh
# store (CPU% of the ingest: 200% is both cores busy), then `stats`,
# `scaling --json` and `report build` on that store (CPU-s, wall, RSS and
# the report's pages), each printed against the issue's < 5 s; an
# ingest row also prints the largest size its write-ahead log reached.
# BENCH_SWEEP_STORE=FILE measures those three on an existing store
# instead (read only: nothing generated or ingested; a report written
# under the bench's temporary folder). BENCH_SWEEP_REF=BINARY runs the
# same three with that binary too (say main's build), as the reference
# measured in the same run. BENCH_SWEEP_SWEEP=NAME: the sweep to read
# (a store with several). The ingest row: with BENCH_SWEEP_REF, that
# binary's `ingest -j 2` of the same sweep into a store of its own is
# printed below it, and its reads are of that store; BENCH_SWEEP_JOBS="1 4" adds rows for those -j too
# (each into a store of its own, deleted after).
. "$(dirname "$0")/common.sh"
bin="$root/$build/amdahl"
export AMDAHL_TEMPLATES="$root/templates"
runs=${BENCH_SWEEP_RUNS:-100}
ranks=${BENCH_SWEEP_RANKS:-64}
store=${BENCH_SWEEP_STORE:-$work/s.db}
# wal_max DB PID: the largest size DB's write-ahead log reached while PID
# ran (sampled every 0.2 s), in MB, into $work/wal
wal_max() {
  local max=0 s
  while kill -0 "$2" 2>/dev/null; do
    s=$(stat -c %s "$1-wal" 2>/dev/null || echo 0)
    [ "$s" -gt "$max" ] && max=$s
    sleep 0.2
  done
  echo $((max / 1000000)) >"$work/wal"
}
step() { # BINARY LABEL TARGET CMD...
  local exe=$1 label=$2 target=$3; shift 3
  /usr/bin/time -f '%e %U %S %P %M' -o "$work/t" "$exe" --store "${into:-$store}" "$@" >"$work/out" 2>"$work/err" &
  local pid=$! rc=0
  rm -f "$work/wal"
  [ "$1" = ingest ] && wal_max "${into:-$store}" "$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/err"; exit 2; }
  read -r w u s p m <"$work/t"
  local pages
  pages=$(sed -n 's/.*report\.pdf (\([0-9]*\) pages).*/, \1 pages/p' "$work/out")
  [ -s "$work/wal" ] && pages=", log at most $(cat "$work/wal") MB"
  printf '  %-32s %8.2f s wall %8.2f s CPU %6s CPU  %6.0f MB RSS%s  %s\n' "$label" "$w" \
    "$(awk -v u="$u" -v s="$s" 'BEGIN{print u + s}')" "$p" "$(awk -v m="$m" 'BEGIN{print m / 1024}')" \
    "$pages" "$target"
}
if [ -z "${BENCH_SWEEP_STORE:-}" ]; then
  bytes=$(/usr/bin/python3 bench/gen_sweep.py "$work/sweep" "$runs" "$ranks")
  traces=$(find "$work/sweep" -name '*.pt.trace.json.gz' | wc -l)
  echo "sweep: $runs runs × $ranks rank traces ($traces traces, $((bytes / 1000000)) MB on disk); load $(cut -d' ' -f1-3 /proc/loadavg)"
  step "$bin" "ingest -j 2" "" ingest -q -j 2 "$work/sweep/mlruns"
  if [ -n "${BENCH_SWEEP_REF:-}" ]; then
    into=$work/ref.db step "$BENCH_SWEEP_REF" "ingest -j 2 (reference: $(basename "$BENCH_SWEEP_REF"))" "" \
      ingest -q -j 2 "$work/sweep/mlruns"
  fi
  for j in ${BENCH_SWEEP_JOBS:-}; do
    into=$work/j$j.db step "$bin" "ingest -j $j" "" ingest -q -j "$j" "$work/sweep/mlruns"
    rm -f "$work/j$j.db"*
  done
else
  echo "store $store (read only); load $(cut -d' ' -f1-3 /proc/loadavg)"
fi
sw=()
[ -n "${BENCH_SWEEP_SWEEP:-}" ] && sw=(--sweep "$BENCH_SWEEP_SWEEP")
reads() { # BINARY SUFFIX
  step "$1" "stats$2" "(target < 5 s)" stats "${sw[@]}"
  step "$1" "scaling --json$2" "" scaling --json "${sw[@]}"
  step "$1" "report build$2" "(target < 5 s)" report build "${sw[@]}" -o "$work/report"
}
reads "$bin" ""
# the reference reads the store it ingested (a newer schema is not its)
[ -n "${BENCH_SWEEP_REF:-}" ] && [ -z "${BENCH_SWEEP_STORE:-}" ] && store=$work/ref.db
[ -n "${BENCH_SWEEP_REF:-}" ] && reads "$BENCH_SWEEP_REF" " (reference: $(basename "$BENCH_SWEEP_REF"))"
echo "  store $(($(stat -c %s "$store") / 1000000)) MB; load $(cut -d' ' -f1-3 /proc/loadavg); CPU of 200% = both cores busy"
