#!/bin/bash
# readers.sh BUILD_DIR — one table for every reader (`make bench`).
# For each reader an input grown from a real file (bench/gen_readers.py:
# real content repeated with shifted times and renamed ids, so nothing is
# deduplicated away) at S and 2S megabytes. One row per reader, on the 2S
# input: `amdahl ingest` into a fresh store — CPU s (user+sys), wall s,
# MB/s and events (samples, rows, points) per CPU second, peak RSS — next
# to a reference reading the same bytes in the same run (zcat, Python's
# json.load / csv / pstats, sqlite3, ...) and the ratio of CPU times; the
# row is marked against the issue's >= 100 MB/s. Then "nothing
# quadratic": the best of BENCH_REPEAT (3) CPU times on 2S over the best
# on S (the two sizes run in turn), scaled to exactly twice the bytes,
# must stay at most 2.2: PASS or FAIL per reader, exit 1 on a FAIL. Sizes: BENCH_SCALE (1) multiplies
# every S; BENCH_READERS (an extended regex) keeps only the readers whose
# name matches it. The three MLflow point forms come from bench/metrics.sh,
# called at the end.
. "$(dirname "$0")/common.sh"
bin="$root/$build/amdahl"
scale=${BENCH_SCALE:-1}
repeat=${BENCH_REPEAT:-3}
py=/usr/bin/python3

# The references (bench/ref_readers.py KIND; zcat; sqlite3 summing kernels
# as `nsys stats` does), each given the file as its last argument.
ref="$py bench/ref_readers.py"
ref_nsys="sqlite3_kernel_sum"
sqlite3_kernel_sum() {
  sqlite3 -batch "$1" 'SELECT deviceId, demangledName, count(*), sum("end" - start)
    FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2'
}
zcat_null() { zcat "$1" >/dev/null; }

# NAME|KIND for gen_readers.py|file name|S in MB|reference label|reference
readers=(
  "Kineto trace .json|trace|k.pt.trace.json|100|python3 json.load|$ref json"
  "Kineto trace .json.gz|trace|k.pt.trace.json.gz|100|zcat >/dev/null|zcat_null"
  "Kineto stack+shapes .json|trace-strings|s.pt.trace.json|100|python3 json.load|$ref json"
  "Kineto stack+shapes .gz|trace-strings|s.pt.trace.json.gz|100|zcat >/dev/null|zcat_null"
  "py-spy raw|pyspy-raw|raw.txt|8|python3 Counter of lines|$ref lines"
  "collapsed stacks|collapsed|perf.collapsed.txt|8|python3 Counter of lines|$ref lines"
  "py-spy speedscope|speedscope|p.speedscope.json|8|python3 json.load|$ref json"
  "py-spy chrometrace|chrometrace|p.chrometrace.json|25|python3 json.load|$ref json"
  "py-spy dump|dump|dumps|25|python3 frame lines|$ref frames"
  "py-spy dump --json|dump-json|dumps-json|8|python3 json.load|$ref json"
  "py-spy SVG|svg|p.py-spy.svg|8|python3 ElementTree|$ref xml"
  "nvidia-smi CSV|nvsmi|nvidia-smi.csv|25|python3 csv.reader|$ref csv"
  "itwinai CSV|itwinai|torch_profiling_averages.csv|8|python3 csv.reader|$ref csv"
  "MLflow REST get-history|rest-history|history.json|25|python3 json.load|$ref json"
  "TensorBoard|tfevents|tb/events.out.tfevents.1|25|python3 framing, no CRC|$ref tfrec"
  "cProfile|cprofile|c.prof|20|python3 pstats.Stats|$ref pstats"
  "Nsight Systems export|nsys|n.sqlite|50|sqlite3 kernel sum|$ref_nsys"
  "key_averages table|keyavg|keyavg.txt|8|python3 split cells|$ref table"
  "MLPerf log|mllog|result_0.txt|25|python3 json.loads per line|$ref mllog"
)

# cpu CMD... -> "cpu_s wall_s max_rss_kb" of one run, CPU to the
# microsecond (bench/rusage.py: /usr/bin/time's hundredths made the
# doubling ratio of the sub-second rows move by 0.2)
cpu() {
  $py bench/rusage.py "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 2; }
  awk '{printf "%.4f %.3f %d\n", $1, $2, $3}' "$work/t"
}
# reference CMD FILE: the reference's "cpu wall rss" (shell functions run
# in a child bash so that rusage.py can time them)
reference() {
  case $1 in
    zcat_null|sqlite3_kernel_sum) cpu bash -c "$(declare -f "$1"); $1 \"\$1\"" bash "$2" ;;
    *) cpu $1 "$2" ;;
  esac
}
# ingest FILE KIND: one `amdahl ingest` of FILE into a fresh store
ingest() {
  rm -f "$work/s.db"*
  local f=$1
  case $2 in
    rest-history) cpu "$bin" --store "$work/s.db" ingest -q --sweep bench --run r "$f" ;;
    tfevents) cpu "$bin" --store "$work/s.db" ingest -q "$(dirname "$f")" ;;
    *) cpu "$bin" --store "$work/s.db" ingest -q "$f" ;;
  esac
}
# best FILE1 FILE2 KIND -> "cpu wall rss" of the run with the least CPU
# of $repeat for each file, on two lines: the two files in turn, so that
# a change of the machine's load between rounds falls on both sizes
# alike (all the S runs and then all the 2S ones made the doubling ratio
# follow the load: 1.63x and 2.54x for one binary and input)
best() {
  local c1=999999 c2=999999 line b keep1 keep2
  for _ in $(seq "$repeat"); do
    line=$(ingest "$1" "$3") || return 2
    b=${line%% *}
    if awk -v a="$b" -v m="$c1" 'BEGIN{exit !(a < m)}'; then c1=$b; keep1=$line; fi
    line=$(ingest "$2" "$3") || return 2
    b=${line%% *}
    if awk -v a="$b" -v m="$c2" 'BEGIN{exit !(a < m)}'; then c2=$b; keep2=$line; fi
  done
  printf '%s\n%s\n' "$keep1" "$keep2"
}
# make KIND DIR FILE MB -> "bytes count unit" (bytes of JSON for a .gz)
make_input() {
  mkdir -p "$2/$(dirname "$3")"
  local f="$2/${3%.gz}" out
  out=$($py bench/gen_readers.py "$1" "$f" "$4")
  [ "${3%.gz}" != "$3" ] && gzip -6 -f -k "$f"
  echo "$(find "$f" -type f -printf '%s\n' | awk '{s += $1} END {print s}') $out" # a directory: its files' bytes
}

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "readers: S and 2S inputs (BENCH_SCALE=$scale), best of $repeat CPU times; load at start $(load)"
printf '\n%-26s %6s %10s %6s %6s %6s %10s %6s %-5s | %-26s %6s %6s | %6s %s\n' reader MB count "CPU s" "wall s" \
  "MB/s" "per s" "RSS MB" ">=100" reference "CPU s" ratio "2x" verdict
rc=0
declare -A made
for r in "${readers[@]}"; do
  IFS='|' read -r name kind file mb rlabel refcmd <<<"$r"
  [[ -z "${BENCH_READERS:-}" || $name =~ ${BENCH_READERS} ]] || continue
  mb=$(awk -v m="$mb" -v s="$scale" 'BEGIN{print m * s}')
  if [ -z "${made[$kind]:-}" ]; then
    rm -rf "$work/1" "$work/2"
    read -r b1 n1 u1 <<<"$(make_input "$kind" "$work/1" "$file" "$mb")"
    read -r b2 n2 u2 <<<"$(make_input "$kind" "$work/2" "$file" "$(awk -v m="$mb" 'BEGIN{print 2 * m}')")"
    made[$kind]="$b1 $b2 $n2 $u2"
  else
    read -r b1 b2 n2 u2 <<<"${made[$kind]}"
    for d in 1 2; do gzip -6 -f -k "$work/$d/${file%.gz}"; done
  fi
  if [ "$n2" = 0 ]; then
    printf '%-26s skipped: no %s (../shared/data/public)\n' "$name" "${u2#missing:}"
    continue
  fi
  both=$(best "$work/1/$file" "$work/2/$file" "$kind")
  read -r c1 _ _ <<<"$(sed -n 1p <<<"$both")"
  read -r c2 w2 rss <<<"$(sed -n 2p <<<"$both")"
  if [ -z "$c1" ] || [ -z "$c2" ]; then # ingest failed (its error is above)
    printf '%-26s FAILED: amdahl ingest did not read the input\n' "$name"
    rc=1
    continue
  fi
  read -r rc_ _ _ <<<"$(reference "$refcmd" "$work/2/$file")"
  awk -v name="$name" -v b1="$b1" -v b2="$b2" -v n="$n2" -v u="$u2" -v c1="$c1" -v c2="$c2" \
      -v w="$w2" -v rss="$rss" -v rl="$rlabel" -v rc="$rc_" 'BEGIN {
    s = c2 > 0 ? c2 : 0.01; mbs = b2 / 1e6 / s
    dbl = (c2 / (c1 > 0 ? c1 : 0.01)) * (b1 / b2) * 2
    printf "%-26s %6.0f %10s %6.2f %6.2f %6.0f %10.0f %6.0f %-5s | %-26s %6.2f %5.2fx | %5.2fx %s\n",
      name, b2 / 1e6, n " " u, c2, w, mbs, n / s, rss / 1024, (mbs >= 100 ? "yes" : "NO"), rl, rc,
      c2 / (rc > 0 ? rc : 0.01), dbl, (dbl <= 2.2 ? "PASS" : "FAIL")
    exit (dbl <= 2.2 ? 0 : 1) }' || rc=1
done
echo "MB/s and per s: per CPU second of amdahl (user+sys); MB of JSON for .gz inputs. ratio: amdahl's CPU"
echo "over the reference's on the same file. 2x: CPU on 2S over CPU on S, scaled to twice the bytes"
echo "(PASS at most 2.2). Load at end $(load)."
if [ -z "${BENCH_NO_METRICS:-}" ]; then
  printf '\n== metric points: bench/metrics.sh\n'
  bash bench/metrics.sh "$build" || rc=1
fi
exit $rc
