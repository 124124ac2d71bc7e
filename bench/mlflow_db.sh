#!/bin/bash
# mlflow_db.sh BUILD_DIR — `amdahl ingest` of one mlflow.db (MLflow's
# SQLite backend) against `sqlite3` reading the same metrics table, in
# the same run (issue 38 item 4: 2 M points/s). The database is
# bench/metrics.sh's: a real run of the bundled CPU sweep lengthened to
# BENCH_MLFLOW_EPOCHS (400,000: 1.2 M points, a 256 MB file) by
# bench/gen_long_run.py, written as mlflow.db by
# tests/fixtures/mlflow_forms.py. Rows, each the median of BENCH_REPS (5)
# rounds taken in turn (the machine is shared): sqlite3 summing every
# column of every metrics row (the floor of reading the table), openssl
# hashing the file (the SHA-256 every ingest takes), amdahl's ingest into
# a new store, the same with AMDAHL_OVERLAP=0 (one thread: hash, then
# parse, then write) and, with BENCH_REF=BINARY (say main's build), that
# binary's ingest. BENCH_MLFLOW_DB=FILE: that database instead. Columns: wall and CPU (user + sys) seconds, points per
# wall second and per CPU second, peak RSS, wall and CPU over sqlite3's.
. "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 missing; make deps"; exit 2; }
epochs=${BENCH_MLFLOW_EPOCHS:-400000}
reps=${BENCH_REPS:-5}
bin="$root/$build/amdahl"
db=${BENCH_MLFLOW_DB:-$work/forms/mlflow.db}
if [ -z "${BENCH_MLFLOW_DB:-}" ]; then
  /usr/bin/python3 bench/gen_long_run.py testdata/cpu-strong-scaling/mlruns/4 "$work/m" "$epochs" \
    35b98d95cb2449f9a3df172d0213ebd2
  /usr/bin/python3 tests/fixtures/mlflow_forms.py "$work/m" "$work/forms" >/dev/null
fi
points=$(sqlite3 "$db" 'SELECT count(*) FROM metrics')
scan="SELECT count(key), sum(value), sum(timestamp), sum(step), sum(is_nan), count(run_uuid) FROM metrics"
names=("sqlite3: every column of metrics" "openssl dgst -sha256 of the file" "amdahl ingest"
       "amdahl ingest, AMDAHL_OVERLAP=0")
cmds=("sqlite3 '$db' '$scan'" "openssl dgst -sha256 '$db'"
      "rm -f '$work/s.db'* && '$bin' --store '$work/s.db' ingest -q '$db'"
      "rm -f '$work/s.db'* && AMDAHL_OVERLAP=0 '$bin' --store '$work/s.db' ingest -q '$db'")
if [ -n "${BENCH_REF:-}" ]; then
  names+=("reference: $BENCH_REF")
  cmds+=("rm -f '$work/s.db'* && '$BENCH_REF' --store '$work/s.db' ingest -q '$db'")
fi
echo "mlflow.db: $points points, $(($(stat -c %s "$db") / 1000000)) MB; $reps rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < reps; r++)); do
  for i in "${!cmds[@]}"; do
    /usr/bin/time -f '%e %U %S %M' -o "$work/t" sh -c "${cmds[$i]}" >/dev/null 2>"$work/err" ||
      { cat "$work/err"; exit 2; }
    awk '{print $1, $2 + $3, $4}' "$work/t" >>"$work/row$i"
  done
done
rw=$(median 1 "$work/row0")
rc_=$(median 2 "$work/row0")
printf '%-44s %7s %7s %11s %11s %7s %6s %6s\n' "" "wall s" "CPU s" "points/s" "pts/CPU-s" "RSS MB" "/sql" "/sqlCPU"
for i in "${!cmds[@]}"; do
  w=$(median 1 "$work/row$i")
  c=$(median 2 "$work/row$i")
  m=$(median 3 "$work/row$i")
  awk -v n="${names[$i]}" -v w="$w" -v c="$c" -v m="$m" -v p="$points" -v rw="$rw" -v rc="$rc_" 'BEGIN {
    w = w > 0 ? w : 0.001; c = c > 0 ? c : 0.001
    printf "%-44s %7.2f %7.2f %11.0f %11.0f %7.0f %5.2fx %5.2fx\n", n, w, c, p / w, p / c, m / 1024,
      w / (rw > 0 ? rw : 0.001), c / (rc > 0 ? rc : 0.001) }'
done
echo "target: amdahl ingest at 2 M points/s wall (a quiet 2-core machine); load $(cut -d' ' -f1-3 /proc/loadavg)"
