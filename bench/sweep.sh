#!/bin/bash
# sweep.sh BUILD_DIR — sweep scale: BENCH_SWEEP_RUNS (100; the issue's
# size is 1000) MLflow runs × BENCH_SWEEP_RANKS (64) rank traces each,
# made by bench/gen_sweep.py from the real n=8 run of
# testdata/cpu-strong-scaling, ingested with `ingest -j 2` into a fresh
# store (CPU% of the ingest: 200% is both cores busy), then `stats` and
# `report build` on that store, each printed against the issue's < 5 s.
. "$(dirname "$0")/common.sh"
bin="$root/$build/amdahl"
export AMDAHL_TEMPLATES="$root/templates"
runs=${BENCH_SWEEP_RUNS:-100}
ranks=${BENCH_SWEEP_RANKS:-64}
bytes=$(/usr/bin/python3 bench/gen_sweep.py "$work/sweep" "$runs" "$ranks")
traces=$(find "$work/sweep" -name '*.pt.trace.json.gz' | wc -l)
echo "sweep: $runs runs × $ranks rank traces ($traces traces, $((bytes / 1000000)) MB on disk); load $(cut -d' ' -f1-3 /proc/loadavg)"
step() { # LABEL TARGET CMD...
  local label=$1 target=$2; shift 2
  /usr/bin/time -f '%e %U %S %P %M' -o "$work/t" "$bin" --store "$work/s.db" "$@" >/dev/null 2>"$work/err" ||
    { cat "$work/err"; exit 2; }
  read -r w u s p m <"$work/t"
  printf '  %-32s %8.2f s wall %8.2f s CPU %6s CPU  %6.0f MB RSS  %s\n' "$label" "$w" \
    "$(awk -v u="$u" -v s="$s" 'BEGIN{print u + s}')" "$p" "$(awk -v m="$m" 'BEGIN{print m / 1024}')" "$target"
}
step "ingest -j 2" "" ingest -q -j 2 "$work/sweep/mlruns"
step "stats" "(target < 5 s)" stats
step "report build" "(target < 5 s)" report build -o "$work/report"
echo "  store $(($(stat -c %s "$work/s.db") / 1000000)) MB; CPU of 200% = both cores busy"
