#!/bin/bash
# run.sh BUILD_DIR — every benchmark (`make bench`): every reader in one table
# with its reference and the doubling check (readers.sh, which also runs
# metrics.sh), trace and TensorBoard ingest speed
# and memory, metric points (ingest rate, `stats` on an input and its
# double), `report build` time, `amdahl mail` with a large attachment,
# the region readers (cProfile, Nsight Systems) on large inputs, the region
# model search of `amdahl scaling`, the SQLite and ClickHouse backends side
# by side (ingest, stats, report build), peak memory for absurd names,
# N and 2N small files in one ingest (small_files.sh).
# Figures are printed, never asserted: targets are stated next to them.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
rc=0
for b in readers startup trace trace_cores tfevents report mail profiles scaling sweep region_pack clickhouse clickhouse_scale clickhouse_cluster clickhouse_10k names small_files trace_rss mlflow_db; do
  echo "== bench/$b.sh"
  bash "$here/$b.sh" "$build" || rc=1
  echo
done
exit $rc
