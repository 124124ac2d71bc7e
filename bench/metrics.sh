#!/bin/bash
# metrics.sh BUILD_DIR — metric points: ingest speed and `stats` growth.
# From a real run of the bundled CPU sweep lengthened to N and 2N epochs
# (bench/gen_long_run.py: its own values and time gaps repeated):
#   - `amdahl ingest` of the three MLflow forms holding points (the file
#     store, the SQLite backend mlflow.db, itwinai's points CSV, made by
#     tests/fixtures/mlflow_forms.py from the same runs): MB/s, points/s,
#     peak RSS and CPU s, next to `sqlite3 .import` of the same points as
#     CSV into a table without indexes (the issue's reference; target: at
#     most half its time) and the ratios (wall, and CPU: the machine is
#     shared); with OLD_AMDAHL=BINARY (e.g. a build of main) the same
#     ingests by that binary are rows of the same table, measured in the
#     same run (the packed series layout against the one before); CPU%
#     is CPU s over wall s (over 100: both cores busy);
#   - the doubling check of the three forms' ingest: the least CPU of 3
#     on 2N points over the least on N (run in turn), scaled to twice the
#     points: PASS at most 2.2 (nothing quadratic), as bench/readers.sh;
#   - `amdahl stats` and `report build` on N and on 2N points: the time
#     ratio must stay at most 2.2 (nothing quadratic). Each is the best of
#     3 runs (the machine is shared). Exit 1 when a ratio passes 2.2.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (Debian package 'time'); make deps"; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 missing; make deps"; exit 2; }
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
n=${BENCH_POINTS:-200000}
exp=testdata/cpu-strong-scaling/mlruns/4
run=35b98d95cb2449f9a3df172d0213ebd2

# best CMD... -> "wall_s max_rss_kb cpu_s": the fastest of 3 runs (wall;
# cpu = user + sys of that run, the figure that load does not inflate)
best() {
  local w=999999 r=0 c=0
  for _ in 1 2 3; do
    /usr/bin/time -f '%e %M %U %S' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
    read -r tw tr tu ts <"$work/t"
    if awk -v a="$tw" -v b="$w" 'BEGIN{exit !(a < b)}'; then w=$tw; r=$tr; c=$(awk -v u="$tu" -v s="$ts" 'BEGIN{print u + s}'); fi
  done
  echo "$w $r $c"
}

for k in 1 2; do
  /usr/bin/python3 bench/gen_long_run.py "$exp" "$work/m$k" $((n * k)) "$run"
  # the same points as CSV (run, key, step, ts, value) for sqlite3 .import
  for f in "$work/m$k"/*/"$run"/metrics/*; do
    awk -v key="$(basename "$f")" '{print "r," key "," $3 "," $1 "," $2}' "$f"
  done >"$work/p$k.csv"
done
# the same runs as the other MLflow forms: the SQLite backend, itwinai's points CSV
# (of N epochs too, for the doubling check of each form's ingest)
/usr/bin/python3 tests/fixtures/mlflow_forms.py "$work/m2" "$work/forms" >/dev/null
/usr/bin/python3 tests/fixtures/mlflow_forms.py "$work/m1" "$work/forms1" >/dev/null

points=$(wc -l <"$work/p2.csv")
read -r rw rr rc_ <<<"$(best sh -c "rm -f '$work/ref.db' && sqlite3 '$work/ref.db' 'CREATE TABLE p(run, key, step, ts, value)' '.mode csv' '.import $work/p2.csv p'")"
# row NAME INPUT WALL RSS CPU: MB/s, points/s (wall and CPU), peak RSS,
# ratios to .import (wall, CPU)
row() {
  local mb
  mb=$(du -sbL "$2" | awk '{print $1 / 1e6}')
  printf '%-34s %7.1f %8d %6.2f %6.2f %5.0f%% %7.1f %10.0f %10.0f %6.1f %6.2fx %6.2fx\n' "$1" "$mb" "$points" \
    "$3" "$5" "$(awk -v c="$5" -v w="$3" 'BEGIN{print 100 * c / (w > 0 ? w : 0.001)}')" \
    "$(awk -v m="$mb" -v w="$3" 'BEGIN{print m / (w > 0 ? w : 0.001)}')" \
    "$(awk -v p="$points" -v w="$3" 'BEGIN{print p / (w > 0 ? w : 0.001)}')" \
    "$(awk -v p="$points" -v c="$5" 'BEGIN{print p / (c > 0 ? c : 0.001)}')" \
    "$(awk -v r="$4" 'BEGIN{print r / 1024}')" "$(awk -v a="$3" -v b="$rw" 'BEGIN{print a / (b > 0 ? b : 0.001)}')" \
    "$(awk -v a="$5" -v b="$rc_" 'BEGIN{print a / (b > 0 ? b : 0.001)}')"
}
printf '\n%-34s %7s %8s %6s %6s %6s %7s %10s %10s %6s %7s %7s\n' "reader (metric points)" "MB" "points" \
  "wall s" "CPU s" "CPU%" "MB/s" "points/s" "pts/CPU-s" "RSS MB" "/ref" "/refCPU"
row "sqlite3 .import CSV, no index" "$work/p2.csv" "$rw" "$rr" "$rc_"
for form in "MLflow file store (the run):$work/m2/4/$run" "MLflow mlflow.db:$work/forms/mlflow.db" \
            "MLflow points CSV:$work/forms/points.csv"; do
  for bin in ${OLD_AMDAHL:+"$OLD_AMDAHL"} "$build/amdahl"; do
    name="amdahl ingest ${form%%:*}"
    [ "$bin" = "$build/amdahl" ] || name="(old) $name"
    read -r w r c <<<"$(best sh -c "rm -f '$work/i.db'* && '$bin' --store '$work/i.db' ingest '${form#*:}'")"
    row "$name" "${form#*:}" "$w" "$r" "$c"
  done
done
echo "/ref, /refCPU: wall and CPU time over sqlite3 .import's of the same points (target: at most 0.5x)"

# min_cpu CMD1 CMD2 -> "cpu1 cpu2": the least CPU (user + sys) of 3 runs
# of each command, the two in turn (a change of load falls on both)
min_cpu() {
  local m1=999999 m2=999999 c
  for _ in 1 2 3; do
    for k in 1 2; do
      /usr/bin/time -f '%U %S' -o "$work/t" sh -c "${!k}" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 2; }
      c=$(awk '{print $1 + $2}' "$work/t")
      if [ "$k" = 1 ]; then m1=$(awk -v a="$c" -v b="$m1" 'BEGIN{print a < b ? a : b}')
      else m2=$(awk -v a="$c" -v b="$m2" 'BEGIN{print a < b ? a : b}'); fi
    done
  done
  echo "$m1 $m2"
}
rc=0
# the doubling check of each form's ingest: CPU on 2N points over CPU on
# N, scaled to exactly twice the points (PASS at most 2.2, as readers.sh)
points1=$(wc -l <"$work/p1.csv")
printf '\n%-34s %10s %7s %10s %7s %6s\n' "ingest (doubling check)" "N points" "CPU s" "2N points" "CPU s" "2x"
for form in "MLflow file store (the run):4/$run" "MLflow mlflow.db:mlflow.db" "MLflow points CSV:points.csv"; do
  f=${form#*:}
  case $f in
    4/*) f1=$work/m1/$f f2=$work/m2/$f ;;
    *) f1=$work/forms1/$f f2=$work/forms/$f ;;
  esac
  read -r c1 c2 <<<"$(min_cpu "rm -f '$work/i.db'* && '$build/amdahl' --store '$work/i.db' ingest -q '$f1'" \
                               "rm -f '$work/i.db'* && '$build/amdahl' --store '$work/i.db' ingest -q '$f2'")"
  awk -v n="${form%%:*}" -v p1="$points1" -v p2="$points" -v c1="$c1" -v c2="$c2" 'BEGIN {
    d = (c2 / (c1 > 0 ? c1 : 0.01)) * (p1 / p2) * 2
    printf "%-34s %10d %7.2f %10d %7.2f %5.2fx %s\n", n, p1, c1, p2, c2, d, (d <= 2.2 ? "PASS" : "FAIL")
    exit (d <= 2.2 ? 0 : 1) }' || rc=1
done

printf '\n%-20s %10s %10s %10s %10s %7s\n' "command" "N points" "wall s" "2N points" "wall s" "ratio"
for k in 1 2; do "$build/amdahl" --store "$work/s$k.db" ingest "$work/m$k" >/dev/null; done
for cmd in stats "report build -o $work/rep"; do
  read -r w1 _ _ <<<"$(best sh -c "'$build/amdahl' --store '$work/s1.db' $cmd")"
  read -r w2 _ _ <<<"$(best sh -c "'$build/amdahl' --store '$work/s2.db' $cmd")"
  ratio=$(awk -v a="$w1" -v b="$w2" 'BEGIN{printf "%.2f", b / (a > 0 ? a : 0.01)}')
  verdict=ok
  awk -v r="$ratio" 'BEGIN{exit !(r > 2.2)}' && { verdict="FAIL (> 2.2: grows faster than linear)"; rc=1; }
  printf '%-20s %10d %10.2f %10d %10.2f %7s %s\n' "${cmd%% -o*}" $((3 * n)) "$w1" $((6 * n)) "$w2" "$ratio" "$verdict"
done
exit $rc
