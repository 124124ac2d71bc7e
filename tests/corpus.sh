#!/bin/bash
# Tests on the public samples in ../shared/data/public (kept out of
# testdata/): every tests/corpus/*.sh, same helpers and closing line as
# tests/run.sh. Usage: tests/corpus.sh BUILD_DIR
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export AMDAHL="$root/$build/amdahl" AMDAHL_ROOT="$root" AMDAHL_TEMPLATES="$root/templates"
export PUBLIC="$root/../shared/data/public"
[ -d "$PUBLIC" ] || { echo "no ../shared/data/public: nothing to test"; echo "0 passed, 0 failed"; exit 0; }
results=$(mktemp); export AMDAHL_RESULTS="$results"
for s in "$root"/tests/corpus/*.sh; do
  [ -f "$s" ] || continue
  (cd "$root" && bash "$s") >"$results.log" 2>&1; rc=$?
  grep -E '^not ok|^#' "$results.log" | head -30
  [ $rc -ne 0 ] && { echo fail >>"$results"; tail -5 "$results.log"; }
  echo "corpus $(basename "$s"): $(grep -c '^ok' "$results.log") passed, $(grep -c '^not ok' "$results.log") failed"
done
passed=$(grep -c '^pass$' "$results"); failed=$(grep -c '^fail$' "$results")
rm -f "$results" "$results.log"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
