#!/bin/bash
# Runs every unit test binary in BUILD/tests and every end-to-end script
# in tests/e2e against BUILD/amdahl; prints one closing line
# "N passed, N failed" and exits non-zero when anything failed.
# Usage: tests/run.sh BUILD_DIR [PATTERN]
#        AMDAHL_TEST_JOBS=2 tests/run.sh ...   two unit tests or e2e scripts at a time
#        AMDAHL_TEST_SCRIPTS="a.sh b.sh" ...   only these e2e scripts
# Each line gives the script's wall and CPU time (tests/lib/runner.sh).
# With AMDAHL_TEST_BACKEND=clickhouse the e2e scripts run with every store
# on one private clickhouse-server started here (tests/test-lib.sh, "the
# backend"); the unit tests, which use no store server, are not rerun.
set -u
build=${1:-build}
pattern=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
# Every binary the scripts run must be built first (make test-plain builds
# them): without amdahl-report every script that draws fails one by one.
for f in amdahl amdahl-report amdahl_metric.so; do
  if [ ! -e "$root/$build/$f" ]; then
    echo "tests/run.sh: $build/$f is not built (make $build/$f, or make test-plain)" >&2
    exit 2
  fi
done
# a name in AMDAHL_TEST_SCRIPTS that is no script (renamed, removed) would
# drop out of its tier silently (the Makefile's SAN_SCRIPTS)
for n in ${AMDAHL_TEST_SCRIPTS:-}; do
  [ -f "$root/tests/e2e/$n" ] || { echo "tests/run.sh: AMDAHL_TEST_SCRIPTS names $n, which is not in tests/e2e" >&2; exit 2; }
done
. "$root/tests/lib/runner.sh"
runner_setup
if [ "${AMDAHL_TEST_BACKEND:-sqlite}" = clickhouse ]; then
  chdir=$(mktemp -d "${TMPDIR:-/tmp}/amdahl-ch.XXXXXX")
  # no query log: no script of the suite reads this server's (clickhouse.sh,
  # which does, starts its own)
  AMDAHL_CH_PORT=$(CH_LOG_QUERIES=0 "$root/tests/lib/clickhouse.sh" start "$chdir") || exit 1
  export AMDAHL_CH_PORT AMDAHL_CH_PIDFILE="$chdir/pid"
  trap '"$root/tests/lib/clickhouse.sh" stop "$chdir"; rm -rf "$chdir"' EXIT
fi
for t in "$root/$build"/tests/test_*; do
  [ -x "$t" ] || continue
  [ "${AMDAHL_TEST_BACKEND:-sqlite}" = clickhouse ] && break
  case "$(basename "$t")" in *.d|*.o) continue;; esac
  [ -n "$pattern" ] && [[ "$(basename "$t")" != *$pattern* ]] && continue
  runner_unit "$t"
done
for s in "$root"/tests/e2e/*.sh; do
  [ -f "$s" ] || continue
  [ -n "$pattern" ] && [[ "$(basename "$s")" != *$pattern* ]] && continue
  if [ -n "${AMDAHL_TEST_SCRIPTS:-}" ]; then
    case " $AMDAHL_TEST_SCRIPTS " in *" $(basename "$s") "*) ;; *) continue ;; esac
  fi
  runner_script e2e "$s"
done
runner_close
