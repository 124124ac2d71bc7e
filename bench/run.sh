#!/bin/bash
# run.sh BUILD_DIR — every benchmark (`make bench`): trace ingest speed
# and memory, `report build` time, `amdahl mail` with a large attachment,
# the region model search of `amdahl scaling`.
# Figures are printed, never asserted: targets are stated next to them.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
rc=0
for b in trace report mail scaling; do
  echo "== bench/$b.sh"
  bash "$here/$b.sh" "$build" || rc=1
  echo
done
exit $rc
