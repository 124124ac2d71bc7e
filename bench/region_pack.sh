#!/bin/bash
# region_pack.sh BUILD_DIR — regions stored packed (issue 38 item 2,
# schema 15): a generated traced sweep (BENCH_REGION_RUNS, default 16,
# x 64 ranks; bench/gen_sweep.py) and the bundled cpu-strong-scaling
# sweep ingested, then, beside each, the reference measured in the same
# run: the same regions as a table of rows with schema 14's two indexes
# (copied out of the region virtual table into a scratch copy) — the
# bytes each layout takes, and the CPU of a full scan of the 13 columns
# `report build`'s region scan reads, through the packs (virtual table)
# and through the rows; then `regions` and `scaling` of the store's
# sweep, whose scans read the packs themselves (region_scan.c), beside
# that scan through the virtual table (their path before round nine),
# and which runs of a name have regions, asked of region_pack's index
# beside the same through the virtual table.
# BENCH_REGION_STORE=FILE measures a store made
# elsewhere (a copy; e.g. the 1,000 x 64 sweep of bench/sweep.sh).
# Figures are printed, never asserted.
set -u
build=$(cd "${1:-build}" && pwd)
bin=$build/amdahl ext=$build/amdahl_metric
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=${BENCH_REGION_RUNS:-16}
cpu() { # LABEL CMD... — user+sys and wall of CMD
  /usr/bin/time -f "%U %S %e" -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
  read -r u s w <"$work/t"
  printf '  %-44s %7.2f s CPU %7.2f s wall\n' "$label" "$(awk -v u="$u" -v s="$s" 'BEGIN{print u + s}')" "$w"
}
used() { # STORE — bytes in use (pages less free pages)
  echo $((($(sqlite3 "$1" 'PRAGMA page_count') - $(sqlite3 "$1" 'PRAGMA freelist_count')) * $(sqlite3 "$1" 'PRAGMA page_size')))
}
cols="count(*), sum(run_id), sum(profiler_id), sum(kind_id), sum(name_id), sum(file_id), sum(line),
 sum(calls), sum(prim_calls), sum(self_ns), sum(total_ns), sum(bytes), sum(source_id), sum(rank)"
compare() { # STORE NAME
  local s=$1 r=$work/rows.db store=$1 sweep
  sweep=$(sqlite3 "$s" "SELECT name FROM sweep ORDER BY id LIMIT 1")
  cp "$s" "$r"
  sqlite3 -cmd ".load $ext" "$r" "CREATE TABLE region_rows AS SELECT * FROM region ORDER BY id;
    CREATE INDEX rr_source ON region_rows(source_id, key); CREATE INDEX rr_run ON region_rows(run_id, name_id);
    DROP TABLE region_pack; VACUUM"
  sqlite3 "$s" "VACUUM"
  local n packed rows
  n=$(sqlite3 "$s" "SELECT sum(n) FROM region_pack")
  packed=$(sqlite3 "$s" "SELECT sum(length(regions)) FROM region_pack")
  echo "  $2: $n regions; store $(($(used "$s") / 1000)) kB packed vs $(($(used "$r") / 1000)) kB as rows (reference);" \
    "region data $((packed / n)) B a region packed"
  label="scan of 13 columns, packs" cpu sqlite3 -cmd ".load $ext" "$s" "SELECT $cols FROM region"
  label="scan of 13 columns, rows (reference)" cpu sqlite3 "$r" "SELECT $cols FROM region_rows"
  # amdahl's own scans read the packs (region_scan.c), not the virtual
  # table: each whole command beside the virtual table's scan above (the
  # path their scan took before, a floor of its cost then)
  # (cpu's read sets s: the store is $store)
  label="regions -n 0, whole command (scan: packs)" cpu "$bin" --store "$store" regions "$sweep" -n 0
  label="scaling --json, whole command (scan: packs)" cpu "$bin" --store "$store" scaling --sweep "$sweep" --json
  # a run named by its name (regions.c's run_by_name): which of the runs
  # of the most common name have regions, asked of region_pack's index,
  # beside the query before round nine through the virtual table
  local name
  name=$(sqlite3 "$store" "SELECT name FROM run GROUP BY name ORDER BY count(*) DESC, name LIMIT 1")
  label="runs named $name with regions, index" cpu sqlite3 "$store" "SELECT id FROM run WHERE name = '$name' ORDER BY
    (EXISTS(SELECT 1 FROM region_pack g WHERE g.run_id = run.id AND g.n > 0) OR EXISTS(SELECT 1 FROM run c JOIN region_pack g
    ON g.run_id = c.id WHERE c.parent_ext_id = run.ext_id AND g.n > 0)) DESC, start_ms DESC"
  label="the same through region (reference)" cpu sqlite3 -cmd ".load $ext" "$store" "SELECT id FROM run WHERE name = '$name' ORDER BY
    EXISTS(SELECT 1 FROM region g WHERE g.run_id = run.id OR g.run_id IN (SELECT c.id FROM run c WHERE c.parent_ext_id = run.ext_id))
    DESC, start_ms DESC"
  rm -f "$r"
}
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${BENCH_REGION_STORE:-}" ]; then
  cp "$BENCH_REGION_STORE" "$work/big.db"
  label="migration to packed regions (ingest -q)" cpu "$bin" --store "$work/big.db" ingest -q "$work"
  compare "$work/big.db" "$(basename "$BENCH_REGION_STORE")"
  exit 0
fi
bytes=$(/usr/bin/python3 "$here/gen_sweep.py" "$work/sweep" "$runs" 64)
label="ingest cpu-strong-scaling (bundled)" cpu "$bin" --store "$work/cpu.db" ingest -q "$here/../testdata/cpu-strong-scaling"
compare "$work/cpu.db" cpu-strong-scaling
label="ingest -j 2 $runs x 64 traced ($((bytes / 1000000)) MB)" cpu "$bin" --store "$work/gen.db" ingest -q -j 2 "$work/sweep/mlruns"
compare "$work/gen.db" "$runs x 64 sweep"
