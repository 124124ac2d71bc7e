#!/bin/bash
# Tests on the public samples in ../shared/data/public (kept out of
# testdata/): every tests/corpus/*.sh, counted and closed the way
# tests/run.sh counts e2e scripts ("N passed, N failed[, N skipped]").
# Usage: tests/corpus.sh BUILD_DIR
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export AMDAHL="$root/$build/amdahl" AMDAHL_ROOT="$root" AMDAHL_TEMPLATES="$root/templates"
export PUBLIC="$root/../shared/data/public"
unset AMDAHL_STORE AMDAHL_SMTP_URL AMDAHL_SMTP_PASSWORD GITHUB_STEP_SUMMARY
[ -d "$PUBLIC" ] || { echo "no ../shared/data/public: nothing to test"; echo "0 passed, 0 failed"; exit 0; }
results=$(mktemp); export AMDAHL_RESULTS="$results"
failed_names=()
for s in "$root"/tests/corpus/*.sh; do
  [ -f "$s" ] || continue
  before=$(grep -c fail "$results")
  (cd "$root" && bash "$s") >"$results.log" 2>&1; rc=$?
  after=$(grep -c fail "$results")
  if [ $rc -ne 0 ] || [ "$after" != "$before" ]; then
    [ "$after" = "$before" ] && echo fail >>"$results"
    failed_names+=("$(basename "$s")")
    grep -E '^not ok|^#' "$results.log" | head -30
    [ $rc -ne 0 ] && tail -5 "$results.log"
  fi
  echo "corpus $(basename "$s"): $(grep '^ok' "$results.log" | grep -vc '# skip') passed, $(grep -c '^not ok' "$results.log") failed"
done
passed=$(grep -c '^pass$' "$results")
failed=$(grep -c '^fail$' "$results")
skipped=$(grep -c '^skip$' "$results")
rm -f "$results" "$results.log"
[ ${#failed_names[@]} -gt 0 ] && echo "failing: ${failed_names[*]}"
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
[ "$failed" = 0 ]
