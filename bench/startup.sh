#!/bin/bash
# startup.sh BUILD_DIR — an ingest that starts fast (issue 38 item 3): the
# whole `amdahl ingest` of the smallest H100 trace .json.gz of testdata
# (~0.56 MB) beside `zcat` of the same file, BENCH_REPS (default 21) times
# each, interleaved, medians of wall time (target: ingest <= 1.0x zcat),
# also on one thread and on two (AMDAHL_TRACE_WORKERS=1/2; by default a
# trace this small is parsed on one, trace_par.h), into a store that
# already exists (what creating one costs), and yajl alone on the
# inflated JSON (the floor of any reader built on it);
# BENCH_REF=BINARY adds another amdahl (the tree before, say) to the same
# rounds. Then the libraries each process maps: `ldd` of amdahl and of
# amdahl-report, and what the dynamic loader initialised (LD_DEBUG=libs)
# for an ingest, `stats` and `report build` (amdahl execs amdahl-report),
# with the drawing and network ones (cairo, fontconfig, pango, curl)
# named. On a shared machine the wall figures say little: the load
# average is printed before and after.
. "$(dirname "$0")/common.sh"
reps=${BENCH_REPS:-21}
amdahl="$root/$build/amdahl"
ref=${BENCH_REF:-}
trace=$(ls -Sr testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | head -1)
cp "$trace" "$work/small.pt.trace.json.gz"
in=$work/small.pt.trace.json.gz
echo "input: $(basename "$trace") ($(stat -c %s "$in") bytes gzip, $(zcat "$in" | wc -c) bytes JSON)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
zcat "$in" >"$work/small.json"
# a store that already holds another trace: the same ingest without
# creating the store (what a new store costs, round five)
other=$(ls -Sr testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | sed -n 2p)
"$amdahl" --store "$work/base.db" ingest -q --format torch-trace "$other" 2>/dev/null
floor="$root/$build/bench/yajl_floor"

# timed NAME CMD... — appends "NAME seconds" to $work/runs
timed() {
  local name=$1 t0 t1; shift
  rm -f "$work/s.db"*
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
  t1=$(date +%s.%N)
  echo "$name $(echo "$t1 - $t0" | bc)" >>"$work/runs"
}
median() {
  awk -v n="$1" '$1 == n {print $2}' "$work/runs" | sort -g |
    awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
for ((i = 0; i < reps; i++)); do
  timed zcat zcat "$in"
  timed ingest "$amdahl" --store "$work/s.db" ingest -q --format torch-trace "$in"
  timed ingest1 env AMDAHL_TRACE_WORKERS=1 "$amdahl" --store "$work/s.db" ingest -q --format torch-trace "$in"
  timed ingest2 env AMDAHL_TRACE_WORKERS=2 "$amdahl" --store "$work/s.db" ingest -q --format torch-trace "$in"
  cp "$work/base.db" "$work/e.db"
  timed existing "$amdahl" --store "$work/e.db" ingest -q --format torch-trace "$in"
  rm -f "$work/e.db"*
  [ ! -x "$floor" ] || timed floor "$floor" "$work/small.json"
  [ -z "$ref" ] || timed ref "$ref" --store "$work/s.db" ingest -q --format torch-trace "$in"
  timed version "$amdahl" --version
  [ -z "$ref" ] || timed ref_version "$ref" --version
done
z=$(median zcat)
printf '%-44s %8s %10s\n' "median of $reps (wall)" seconds "x zcat"
row() { printf '%-44s %8.4f %10.2f\n' "$1" "$2" "$(echo "$2 / $z" | bc -l)"; }
row "zcat (the reference)" "$z"
row "amdahl ingest (target <= 1.00x zcat)" "$(median ingest)"
row "amdahl ingest, AMDAHL_TRACE_WORKERS=1" "$(median ingest1)"
row "amdahl ingest, AMDAHL_TRACE_WORKERS=2" "$(median ingest2)"
row "amdahl ingest into an existing store" "$(median existing)"
[ ! -x "$floor" ] || row "yajl alone on the inflated JSON (floor)" "$(median floor)"
[ -z "$ref" ] || row "BENCH_REF ingest ($ref)" "$(median ref)"
row "amdahl --version (start and exit)" "$(median version)"
[ -z "$ref" ] || row "BENCH_REF --version" "$(median ref_version)"

# libs NAME CMD... — the libraries the loader initialised for CMD (every
# process it runs, exec'd helpers included)
libs() {
  local name=$1; shift
  rm -f "$work/s.db"* "$work"/ld.*
  LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/ld" "$@" >/dev/null 2>&1 || true
  local all heavy
  all=$(sed -n 's/.*calling init: //p' "$work"/ld.* | sort -u)
  heavy=$(grep -E 'libcairo|libfontconfig|libpango|libcurl' <<<"$all" | xargs -rn1 basename | tr '\n' ' ')
  printf '%-44s %5d  %s\n' "$name" "$(grep -c . <<<"$all")" "${heavy:-(none of cairo, fontconfig, pango, curl)}"
}
echo
printf '%-44s %5s  %s\n' "libraries (ldd / loader's calling init)" count "drawing and network ones"
printf '%-44s %5d\n' "ldd amdahl" "$(ldd "$amdahl" | grep -c .)"
printf '%-44s %5d\n' "ldd amdahl-report" "$(ldd "$root/$build/amdahl-report" | grep -c .)"
[ -z "$ref" ] || printf '%-44s %5d\n' "ldd BENCH_REF" "$(ldd "$ref" | grep -c .)"
libs "ingest of the trace" "$amdahl" --store "$work/s.db" ingest -q --format torch-trace "$in"
[ -z "$ref" ] || libs "BENCH_REF ingest of the trace" "$ref" --store "$work/s.db" ingest -q --format torch-trace "$in"
"$amdahl" --store "$work/m.db" ingest -q testdata/cpu-strong-scaling/mlruns
libs "stats" "$amdahl" --store "$work/m.db" stats
libs "report build (amdahl + amdahl-report)" "$amdahl" --store "$work/m.db" report build -o "$work/rep"
# the syncs of an ingest creating its store (round five: 8 -> 5)
if command -v strace >/dev/null; then
  rm -f "$work/s.db"*
  syncs=$(strace -f -e trace=fsync,fdatasync -o "$work/strace" "$amdahl" --store "$work/s.db" ingest -q \
    --format torch-trace "$in" 2>/dev/null >/dev/null; grep -c 'sync(' "$work/strace")
  printf '%-44s %5d\n' "fsync+fdatasync, ingest into a new store" "$syncs"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
