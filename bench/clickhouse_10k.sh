#!/bin/bash
# clickhouse_10k.sh BUILD_DIR — issue 37's 10,000-run row, measured in one
# run on a private clickhouse-server (bench/ch_server.sh) beside SQLite:
# a team's store of 10,000 runs, each with 3 metrics × BENCH_10K_STEPS
# (100) points: BENCH_10K_SWEEPS - 1 (499) sweeps × BENCH_10K_RUNS (20)
# in one MLflow mlflow.db (bench/gen_store_10k.py: one unit) and one
# sweep of 20 runs in an MLflow file store (bench/gen_sweep.py: a unit
# per run file), ingested into SQLite (the reference) and ClickHouse;
# then, for the sweep in its own files and for one inside the mlflow.db
# (team-sweep-249 of 499), `stats --sweep` and `report build --sweep`: wall on
# both backends, whether the outputs are the same, and the result rows,
# bytes and queries the server sent (system.query_log) beside the
# sweep's points. A read loads, of its sweep's sources, its runs' rows
# (ch_scope.c): the sweep inside the one file that holds 9,980 runs
# loads its 20 (before r6-37a: all of them, 2.1 M rows / 161 MB).
# Last, `regions` of a traced sweep of 20 runs × 8 ranks in a database of
# its own: the region rows summed per run on the server (r7-37b).
# Generated data; not part of make test.
# Skipped with a message where no server can be run.
. "$(dirname "$0")/common.sh"
. "$root/bench/ch_server.sh"

sweeps=${BENCH_10K_SWEEPS:-500} runs=${BENCH_10K_RUNS:-20} steps=${BENCH_10K_STEPS:-100}
read -r nruns npoints <<<"$(/usr/bin/python3 bench/gen_store_10k.py "$work/team.db" $((sweeps - 1)) "$runs" "$steps")"
/usr/bin/python3 bench/gen_sweep.py "$work/own" "$runs" 1 3 "$steps" >/dev/null
nruns=$((nruns + runs)) npoints=$((npoints + runs * 3 * steps))
echo "clickhouse_10k: clickhouse-server $(q 'SELECT version()'); $nruns runs in $sweeps sweeps, $npoints metric points ($((sweeps - 1)) sweeps in one mlflow.db of $(($(stat -c %s "$work/team.db") / 1000000)) MB, one in $runs MLflow run folders); load $(cut -d' ' -f1-3 /proc/loadavg)"

# timed LABEL STORE CMD… — one line: wall and amdahl's CPU; output in $work/out
timed() {
  local label=$1 store=$2; shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$bin" --store "$store" "$@" >"$work/out" 2>"$work/err" ||
    { cat "$work/err"; exit 2; }
  awk -v l="$label" '{ printf "  %-52s %8.2f s wall %7.2f s CPU %6.0f MB RSS\n", l, $1, $2 + $3, $4 / 1024 }' "$work/t"
}
# the result rows, bytes and number of the amdahl user's queries so far
logged() { curl -sS --data-binary "$1" "http://127.0.0.1:$port/"; }
log_total() {
  logged "SYSTEM FLUSH LOGS"
  logged "SELECT sum(result_rows), sum(result_bytes), count() FROM system.query_log WHERE user = 'amdahl' AND type = 2"
}
moved() { # BEFORE AFTER
  awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, "\t"); split(b, y, "\t");
    printf "    from the server: %d result rows, %.2f MB, %d queries\n", y[1] - x[1], (y[2] - x[2]) / 1e6, y[3] - x[3] }'
}

sq="$work/team-sq.db" chs="$ch/team"
timed "ingest, SQLite (reference)" "$sq" ingest -q "$work/team.db" "$work/own/mlruns"
timed "ingest, ClickHouse" "$chs" ingest -q "$work/team.db" "$work/own/mlruns"
mid=team-sweep-$(printf %03d $(((sweeps - 1) / 2)))
for cmd in "stats --sweep cpu-strong-scaling" "report build --sweep cpu-strong-scaling" \
           "stats --sweep $mid" "report build --sweep $mid"; do
  read -ra args <<<"$cmd"
  [ "${args[0]}" = report ] && args+=(-o "$work/rsq")
  timed "$cmd, SQLite (reference)" "$sq" "${args[@]}"
  [ "${args[0]}" = report ] && args[${#args[@]}-1]="$work/rch" || cp "$work/out" "$work/out.sq"
  a=$(log_total)
  timed "$cmd, ClickHouse" "$chs" "${args[@]}"
  b=$(log_total)
  moved "$a" "$b"
  if [ "${args[0]}" = report ]; then
    same=$(cmp -s <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC//g' "$work/rsq/report.json") \
                  <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC//g' "$work/rch/report.json") && echo yes || echo NO)
    echo "    report.json the same on both backends: $same"
  else
    echo "    output the same on both backends: $(cmp -s "$work/out.sq" "$work/out" && echo yes || echo NO)"
  fi
done
echo "  the store holds $npoints points of $nruns runs; a sweep holds $((runs * 3 * steps)) of them"

# `regions` of a traced sweep — BENCH_10K_RUNS runs × BENCH_10K_RANKS (8)
# rank traces (bench/gen_sweep.py), in a database of its own: the server
# sums the region rows per run and region (ch_reduce.c, r7-37b) and only
# the sums cross (before: one row per trace and region).
ranks=${BENCH_10K_RANKS:-8}
/usr/bin/python3 bench/gen_sweep.py "$work/traced" "$runs" "$ranks" >/dev/null
tsq="$work/traced.db" tch="$ch/traced"
timed "ingest $runs × $ranks traced sweep, SQLite (reference)" "$tsq" ingest -q "$work/traced"
timed "ingest $runs × $ranks traced sweep, ClickHouse" "$tch" ingest -q "$work/traced"
timed "regions cpu-strong-scaling -n 0, SQLite (reference)" "$tsq" regions cpu-strong-scaling -n 0 --json
cp "$work/out" "$work/out.sq"
a=$(log_total)
timed "regions cpu-strong-scaling -n 0, ClickHouse" "$tch" regions cpu-strong-scaling -n 0 --json
b=$(log_total)
moved "$a" "$b"
logged "SYSTEM FLUSH LOGS"
echo "    of them region rows: $(logged "SELECT sum(result_rows) FROM (SELECT result_rows FROM system.query_log WHERE user = 'amdahl' AND type = 2 AND match(query, 'FROM region ') ORDER BY event_time DESC, query_start_time DESC LIMIT 1)") (the sweep holds $("$bin" --store "$tsq" sql "SELECT count(*) FROM region" | tail -1))"
echo "    output the same on both backends: $(cmp -s "$work/out.sq" "$work/out" && echo yes || echo NO)"
