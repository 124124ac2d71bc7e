# runner.sh — what tests/run.sh and tests/corpus.sh share: the
# environment every script gets, running test-lib.sh scripts (several at
# once with AMDAHL_TEST_JOBS=N) and counting their cases, and the closing
# line "N passed, N failed[, N skipped]". Sourced with root and build set.
#
# Each script's line says its time: "(W s wall, C CPU-s[ + S server CPU-s])"
# — C is the script and every process it waited for (GNU time), S the
# ClickHouse server tests/run.sh started (AMDAHL_TEST_BACKEND=clickhouse).
# Scripts run AMDAHL_TEST_JOBS at a time (default 1); a script that must
# have the machine to itself (it times itself against a bound, or kills
# processes at measured moments) sets `test_run_alone=1` before sourcing
# test-lib.sh, and the runner then runs it with nothing beside it.
runner_setup() {
  export AMDAHL="$root/$build/amdahl" AMDAHL_ROOT="$root" AMDAHL_TEMPLATES="$root/templates"
  unset AMDAHL_STORE AMDAHL_SMTP_URL AMDAHL_SMTP_PASSWORD GITHUB_STEP_SUMMARY
  . "$root/tests/lib/tmpdir.sh"
  results=$(mktemp)
  rdir=$(mktemp -d)
  export AMDAHL_RESULTS="$results"
  failed_names=()
  runner_jobs=${AMDAHL_TEST_JOBS:-1}
  runner_running=0
  runner_t0=$(date +%s.%N)
  runner_srv0=$(runner_server_cpu)
}

# runner_script LABEL SCRIPT — runs SCRIPT, shows its failing cases, and
# counts a script that died without recording a failure as one failure.
# With AMDAHL_TEST_JOBS > 1 it starts SCRIPT in the background once
# fewer than that many run (a test_run_alone script waits for all).
runner_script() {
  local label=$1 s=$2
  if [ "$runner_jobs" -gt 1 ] && grep -q '^test_run_alone=1' "$s"; then
    runner_wait_all
    runner_one "$label" "$s"
    return
  fi
  runner_spawn runner_one "$label" "$s"
}

# runner_unit BINARY — one cmocka unit test binary, its cases counted from
# its "[  PASSED  ]"/"[  FAILED  ]" lines; several at once, and beside the
# scripts, with AMDAHL_TEST_JOBS > 1 (the unit tests time nothing, so the
# longest, test_region_truth, no longer holds a tier on one core).
runner_unit() {
  runner_spawn runner_unit_one "$1"
}

# runner_spawn FUNCTION ARGS… — runs FUNCTION ARGS…: in the background once
# fewer than AMDAHL_TEST_JOBS run, or in the foreground with one job
runner_spawn() {
  if [ "$runner_jobs" -le 1 ]; then
    "$@"
    return
  fi
  while [ "$runner_running" -ge "$runner_jobs" ]; do
    wait -n
    runner_running=$((runner_running - 1))
  done
  "$@" &
  runner_running=$((runner_running + 1))
}

runner_wait_all() {
  wait
  runner_running=0
}

# runner_one LABEL SCRIPT — one script, its results in $rdir/NAME.*;
# its lines are printed in one write when it ends.
runner_one() {
  local label=$1 s=$2 name r rc t0 srv0 took failed
  name=$label-$(basename "$s" .sh)
  r=$rdir/$name
  t0=$(date +%s.%N) srv0=$(runner_server_cpu)
  if [ -x /usr/bin/time ]; then
    (cd "$root" && AMDAHL_RESULTS="$r.results" /usr/bin/time -f '%U %S' -o "$r.time" bash "$s") >"$r.log" 2>&1; rc=$?
  else
    (cd "$root" && AMDAHL_RESULTS="$r.results" bash "$s") >"$r.log" 2>&1; rc=$?
  fi
  took=$(runner_took "$t0" "$srv0" "$r.time")
  [ -s "$r.time" ] && tail -1 "$r.time" | awk 'NF == 2 {print $1 + $2}' >"$r.cpu"
  touch "$r.results"
  failed=$(grep -c '^fail$' "$r.results")
  {
    if [ $rc -ne 0 ] || [ "$failed" != 0 ]; then
      [ "$failed" = 0 ] && echo fail >>"$r.results"
      basename "$s" >"$r.failed"
      grep -E '^not ok|^#' "$r.log" | head -30
      [ $rc -ne 0 ] && tail -5 "$r.log"
    fi
    echo "$label $(basename "$s"): $(grep '^ok' "$r.log" | grep -vc '# skip') passed, $(grep -c '^not ok' "$r.log") failed ($took)$(sed -n 's/^1\.\.0 # SKIP /, skipped whole: /p' "$r.log")"
  } >"$r.out"
  cat "$r.out"
  cat "$r.results" >>"$results"
}

runner_unit_one() {
  local t=$1 name r rc t0 p f
  name=unit-$(basename "$t")
  r=$rdir/$name
  t0=$(date +%s.%N)
  (cd "$root" && /usr/bin/time -f '%U %S' -o "$r.time" "$t") >"$r.log" 2>&1; rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$r.log" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$r.log" | tail -1)
  : >"$r.results"
  for _ in $(seq 1 "${p:-0}"); do echo pass >>"$r.results"; done
  for _ in $(seq 1 "${f:-0}"); do echo fail >>"$r.results"; done
  [ -s "$r.time" ] && tail -1 "$r.time" | awk 'NF == 2 {print $1 + $2}' >"$r.cpu"
  {
    if [ $rc -ne 0 ]; then
      [ -z "$f" ] && echo fail >>"$r.results"
      basename "$t" >"$r.failed"
      grep -E 'FAIL|ERROR|error|Sanitizer|runtime error' "$r.log" | head -20
    fi
    echo "unit $(basename "$t"): ${p:-0} passed, ${f:-0} failed ($(runner_took "$t0" "" "$r.time"))"
  } >"$r.out"
  cat "$r.out"
  cat "$r.results" >>"$results"
}

# runner_server_cpu — CPU seconds the ClickHouse server tests/run.sh
# started has used so far ($AMDAHL_CH_PIDFILE; empty without one).
runner_server_cpu() {
  local pid f
  [ -n "${AMDAHL_CH_PIDFILE:-}" ] && [ -f "$AMDAHL_CH_PIDFILE" ] || return 0
  pid=$(cat "$AMDAHL_CH_PIDFILE")
  f=$(cut -d')' -f2- "/proc/$pid/stat" 2>/dev/null) || return 0
  # utime and stime, fields 14 and 15 of stat: 12 and 13 after "comm)"
  echo "$f" | awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($12 + $13) / hz}'
}

# runner_took T0 SRV0 TIMEFILE — "W s wall, C CPU-s[ + S server CPU-s]"
runner_took() {
  local wall cpu="" srv=""
  wall=$(awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b - a}')
  [ -s "$3" ] && cpu=$(tail -1 "$3" | awk 'NF == 2 {printf "%.1f", $1 + $2}')
  [ -n "$2" ] && srv=$(awk -v a="$2" -v b="$(runner_server_cpu)" 'BEGIN{printf "%.1f", b - a}')
  printf '%s s wall' "$wall"
  [ -n "$cpu" ] && printf ', %s CPU-s' "$cpu"
  [ -n "$srv" ] && printf ' + %s server CPU-s' "$srv"
  return 0
}

# runner_close — the tier's time and the closing line; returns 1 when
# anything failed.
runner_close() {
  local passed failed skipped f cpu
  runner_wait_all
  for f in "$rdir"/*.failed; do [ -f "$f" ] && failed_names+=("$(cat "$f")"); done
  passed=$(grep -c '^pass$' "$results")
  failed=$(grep -c '^fail$' "$results")
  skipped=$(grep -c '^skip$' "$results")
  cpu=$(cat "$rdir"/*.cpu 2>/dev/null | awk '{t += $1} END {printf "%.0f", t}')
  echo "time: $(runner_took "$runner_t0" "$runner_srv0" /dev/null), $cpu CPU-s; $runner_jobs at a time; files in ${TMPDIR:-/tmp}"
  rm -rf "$results" "$rdir"
  [ ${#failed_names[@]} -gt 0 ] && echo "failing: ${failed_names[*]}"
  if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
  [ "$failed" = 0 ]
}
