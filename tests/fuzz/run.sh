#!/bin/bash
# run.sh — runs every libFuzzer target for FUZZ_SECONDS (default 60),
# then replays every input in testdata/fuzz-regressions/. Prints one line
# per target: how long it ran, how many inputs, and whether it found
# anything (findings are written to BUILD/findings/). Exit 1 on a finding
# or a failing regression input.
#   targets: BUILD/fuzz_<x> (seeds below), and fuzz_format once per line of
#   tests/fuzz/formats.txt (AMD_FUZZ_FORMAT=<name>).
# FUZZ_ONLY=PATTERN runs (and replays) only the targets whose names
# contain PATTERN (format-cprofile, mlflow_run, format-...).
# Usage: tests/fuzz/run.sh BUILD_DIR   (make fuzz, make fuzz-long)
set -u
build=${1:-build-fuzz}
secs=${FUZZ_SECONDS:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
data=testdata
regress=testdata/fuzz-regressions
mkdir -p "$build/corpus" "$build/seeds" "$build/findings" "$build/logs"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
report="$build/fuzz-report.txt"
: >"$report"
bad=0

# Seeds of fuzz_mlflow_run: each real run directory as
# meta.yaml ~~~ first metric file ~~~ first param file.
seeds_mlflow_run() {
  local out=$1 i=0 sep=$'\n~~~\n'
  find "$data" -name meta.yaml -path '*/ml*/*/*/meta.yaml' | sort | head -60 | while read -r meta; do
    dir=$(dirname "$meta")
    metric=$(find "$dir/metrics" -type f 2>/dev/null | sort | head -1)
    param=$(find "$dir/params" -type f 2>/dev/null | sort | head -1)
    { cat "$meta"; printf '%s' "$sep"; [ -n "$metric" ] && head -200 "$metric"
      printf '%s' "$sep"; [ -n "$param" ] && cat "$param"; } >"$out/run$i"
    if [ $i = 0 ] && [ -n "$metric" ]; then  # one with a gzipped metric file
      { cat "$meta"; printf '%s' "$sep"; head -50 "$metric" | gzip -c; printf '%s' "$sep"; } >"$out/run-gz"
    fi
    i=$((i + 1))
  done
}

seeds_config() {
  local out=$1
  cp tests/fuzz/seeds/config/* "$out/"
  find "$data" -name meta.yaml | sort | head -20 | while read -r m; do
    cp "$m" "$out/meta-$(echo "$m" | sha256sum | cut -c1-12).yaml"
  done
}

# Seeds of fuzz_layout: tables of names that once made the layout loops
# spin (a 34-character strategy, markup, a long unbroken name).
seeds_layout() {
  cp tests/fuzz/seeds/layout/* "$1/"
}

# Seeds of fuzz_metric_blob: packed metric series blobs (a real series of
# testdata/cpu-strong-scaling, NaN/inf/repeated steps, empty, truncated).
seeds_metric_blob() {
  cp tests/fuzz/seeds/metric_blob/* "$1/"
}

# Seeds of fuzz_gpu_blob: packed GPU sample blobs (testdata's
# nvidia-smi log as one series, NaN/inf/-0 and extreme times, empty,
# truncated).
seeds_gpu_blob() {
  cp tests/fuzz/seeds/gpu_blob/* "$1/"
}

# Seeds of fuzz_stack_blob: packed py-spy node and sample blobs (the
# first byte picks which: testdata/pyspy's dump and collapsed files' packs,
# cut to 64 records), empty, truncated, descending ids, extreme values.
seeds_stack_blob() {
  cp tests/fuzz/seeds/stack_blob/* "$1/"
}

# Seeds of fuzz_region_blob: packed region blobs (n, id_lo, blob: four
# packs of the bundled CPU sweep's traces, cProfile and py-spy files),
# empty, truncated, a width of 3, descending ids.
seeds_region_blob() {
  cp tests/fuzz/seeds/region_blob/* "$1/"
}

# Seeds of fuzz_op_blob: an op_average_pack row's n (2 bytes) and blob
# (a pack of the bundled itwinai layout, truncated, empty, a width of
# 3), and schema 16's 56-byte records (NULL masks, -0/NaN/inf and
# extreme int64s, empty, truncated).
seeds_op_blob() {
  cp tests/fuzz/seeds/op_blob/* "$1/"
}

# Seeds of fuzz_call_blob: a region_call_pack row's n (2 bytes) and blob
# (packs of cProfile dumps' edges, NULL masks and extreme int64s at
# width 8, none, truncated, a width of 3).
seeds_call_blob() {
  cp tests/fuzz/seeds/call_blob/* "$1/"
}

# Seeds of fuzz_isotime: ISO 8601 times as selectors and MLflow's CSV
# export write them (a date, Z, +HH:MM, +HHMM, +HH, an out-of-range zone).
seeds_isotime() {
  cp tests/fuzz/seeds/isotime/* "$1/"
}

# Seeds of fuzz_split: traceEvents' content (the head of a real trace's
# array; strings holding brackets, commas and escaped quotes; an empty
# element; a blank first piece; an array that ends with the document's
# rest after it).
seeds_split() {
  cp tests/fuzz/seeds/split/* "$1/"
}

# Seeds of fuzz_mail_subject: subjects (ASCII, the default's form with a
# non-ASCII sweep, a long one of 1-4 byte characters, invalid UTF-8).
seeds_mail_subject() {
  cp tests/fuzz/seeds/mail_subject/* "$1/"
}

# run_target NAME BINARY SEED_FN_OR_FIND_ARGS...
run_target() {
  local name=$1 bin=$2; shift 2
  [[ $name == *"${FUZZ_ONLY:-}"* ]] || return 0
  local corpus="$build/corpus/$name" seeds="$build/seeds/$name" log="$build/logs/$name.log"
  mkdir -p "$corpus" "$seeds"
  rm -f "$seeds"/*
  if [ "$(type -t -- "$1")" = function ]; then "$1" "$seeds"
  else find "$data" "$@" -type f | sort | head -100 | while read -r f; do
         cp "$f" "$seeds/$(echo "$f" | sha256sum | cut -c1-16)"; done
  fi
  local start=$SECONDS
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$build/findings/$name-" -print_final_stats=1 \
    "$corpus" "$seeds" >"$log" 2>&1
  local rc=$? took=$((SECONDS - start))
  local runs; runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  local line
  if [ $rc = 0 ]; then
    line="$name: ran ${took} s, ${runs:-?} inputs, corpus $(ls "$corpus" | wc -l), no finding"
  else
    line="$name: FINDING after ${took} s (exit $rc), see $log and $build/findings/$name-*"
    grep -E 'ERROR:|runtime error|SUMMARY|contract' "$log" | head -5
    bad=1
  fi
  echo "$line" | tee -a "$report"
}

# replay NAME BINARY: every file in testdata/fuzz-regressions/NAME/ once.
replay() {
  local name=$1 bin=$2 dir="$regress/$1"
  [[ $name == *"${FUZZ_ONLY:-}"* ]] || return 0
  [ -d "$dir" ] || return 0
  local files=("$dir"/*)
  [ -e "${files[0]}" ] || return 0
  if "$bin" -runs=1 "${files[@]}" >"$build/logs/$name-regress.log" 2>&1; then
    echo "$name: ${#files[@]} regression inputs replayed, all pass" | tee -a "$report"
  else
    echo "$name: a regression input fails, see $build/logs/$name-regress.log" | tee -a "$report"
    bad=1
  fi
}

for bin in "$build"/fuzz_*; do
  [ -x "$bin" ] || continue
  t=$(basename "$bin"); t=${t#fuzz_}
  case $t in
    *.d|*.o) ;;
    format) ;;  # driven by formats.txt below
    *) if [ "$(type -t "seeds_$t")" = function ]; then run_target "$t" "$bin" "seeds_$t"
       else echo "fuzz: no seeds_$t in tests/fuzz/run.sh" | tee -a "$report"; bad=1; fi
       replay "$t" "$bin" ;;
  esac
done

while read -r fmt args; do
  case $fmt in ''|\#*) continue;; esac
  export AMD_FUZZ_FORMAT=$fmt
  eval "run_target format-$fmt $build/fuzz_format $args"
  replay "format-$fmt" "$build/fuzz_format"
done <tests/fuzz/formats.txt
unset AMD_FUZZ_FORMAT

echo "fuzz report: $report"
exit $bad
