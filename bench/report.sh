#!/bin/bash
# report.sh — how long `report build` takes on the bundled real sweep
# (testdata/cpu-strong-scaling: 29 runs, 5 charts, PDF + PNG + SVG +
# summaries + JSON). Target: under 1 s. Prints the best and median of 5
# wall-clock runs, the CPU time (user + sys) and the peak RSS.
# Usage: bench/report.sh [BUILD_DIR]
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/$build/amdahl"
export AMDAHL_TEMPLATES="$root/templates"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --store "$tmp/a.db" ingest "$root/testdata/cpu-strong-scaling/mlruns" >/dev/null
times=()
for i in 1 2 3 4 5; do
  rm -rf "$tmp/out"
  s=$(date +%s.%N)
  "$bin" --store "$tmp/a.db" report build -o "$tmp/out" >/dev/null
  e=$(date +%s.%N)
  times+=("$(awk -v s="$s" -v e="$e" 'BEGIN{printf "%.3f", e-s}')")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
best=$(printf '%s\n' "$sorted" | head -1)
median=$(printf '%s\n' "$sorted" | sed -n 3p)
read -r rss cpu < <( { /usr/bin/time -f '%M %U %S' "$bin" --store "$tmp/a.db" report build -o "$tmp/out2" >/dev/null; } 2>&1 | tail -1 | awk '{print $1, $2 + $3}')
pages=$(pdfinfo "$tmp/out/report.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
printf 'report build (cpu-strong-scaling, %s pages, %s charts): best %s s, median %s s wall (target < 1 s), %s s CPU, peak RSS %s KB\n' \
  "${pages:-?}" "$(ls "$tmp/out/charts" | grep -c png)" "$best" "$median" "$cpu" "$rss"
