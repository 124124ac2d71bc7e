#!/bin/bash
# Tests on the public samples in ../shared/data/public (kept out of
# testdata/): every tests/corpus/*.sh, counted and closed the way
# tests/run.sh counts e2e scripts ("N passed, N failed[, N skipped]").
# Usage: tests/corpus.sh BUILD_DIR
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib/runner.sh"
PUBLIC=$(cd "$root/../shared/data/public" 2>/dev/null && pwd -P)
export PUBLIC
[ -n "$PUBLIC" ] && [ -d "$PUBLIC" ] || { echo "no ../shared/data/public: nothing to test"; echo "0 passed, 0 failed"; exit 0; }
runner_setup
for s in "$root"/tests/corpus/*.sh; do
  [ -f "$s" ] && runner_script corpus "$s"
done
runner_close
