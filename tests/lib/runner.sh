# runner.sh — what tests/run.sh and tests/corpus.sh share: the
# environment every script gets, running one test-lib.sh script and
# counting its cases, and the closing line "N passed, N failed[, N
# skipped]". Sourced with root and build set.
runner_setup() {
  export AMDAHL="$root/$build/amdahl" AMDAHL_ROOT="$root" AMDAHL_TEMPLATES="$root/templates"
  unset AMDAHL_STORE AMDAHL_SMTP_URL AMDAHL_SMTP_PASSWORD GITHUB_STEP_SUMMARY
  results=$(mktemp)
  export AMDAHL_RESULTS="$results"
  failed_names=()
}

# runner_script LABEL SCRIPT — runs SCRIPT, shows its failing cases, and
# counts a script that died without recording a failure as one failure.
runner_script() {
  local label=$1 s=$2 before after rc
  before=$(grep -c fail "$results")
  (cd "$root" && bash "$s") >"$results.log" 2>&1; rc=$?
  after=$(grep -c fail "$results")
  if [ $rc -ne 0 ] || [ "$after" != "$before" ]; then
    [ "$after" = "$before" ] && echo fail >>"$results"
    failed_names+=("$(basename "$s")")
    grep -E '^not ok|^#' "$results.log" | head -30
    [ $rc -ne 0 ] && tail -5 "$results.log"
  fi
  echo "$label $(basename "$s"): $(grep '^ok' "$results.log" | grep -vc '# skip') passed, $(grep -c '^not ok' "$results.log") failed"
}

# runner_close — the closing line; returns 1 when anything failed.
runner_close() {
  local passed failed skipped
  passed=$(grep -c '^pass$' "$results")
  failed=$(grep -c '^fail$' "$results")
  skipped=$(grep -c '^skip$' "$results")
  rm -f "$results" "$results.log"
  [ ${#failed_names[@]} -gt 0 ] && echo "failing: ${failed_names[*]}"
  if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
  [ "$failed" = 0 ]
}
