#!/bin/bash
# trace_rss.sh BUILD_DIR — does a trace's ingest memory stay bounded as the
# trace grows (issue 40 item 9)? The largest bundled H100 trace repeated N
# and 3N times (bench/gen_big_trace.py: shifted timestamps, the same
# names), and the same with every op name made distinct per copy (many
# distinct names, longer ones): peak RSS of `amdahl ingest` at both sizes
# and the growth per added event, next to `wc -c` on the same file (the
# reference: reading it with no state). Target: growth under 4 bytes an
# event once the per-track reorder windows are full (LANE_REORDER events
# a track, trace_agg.c); distinct names cost their strings and op rows.
# TRACE_RSS_GB="0.25 0.5 1 2" instead measures files of those sizes in GB
# (bench/gen_sized_trace.py: shifted copies, names new in every copy; one
# file at a time in /tmp, deleted after its row; 2 GB needs 2 GB free):
# peak RSS next to the file size and the bytes an added event costs;
# TRACE_RSS_ORDER=kineto writes them in Kineto's order (all CPU ops, then
# all runtime calls and kernels: gen_sized_trace.py --kineto-order).
# There each size is measured with the names kept (a realistic trace:
# --keep-names) and with every name new in every copy (the worst case
# for the name tables, which become op rows); TRACE_RSS_NAMES="kept" or
# "distinct" measures one. TRACE_RSS_REF=BINARY also runs another amdahl
# (e.g. main's build) on the same file, as the reference in the same run.
# CPU s is user + sys.
. "$(dirname "$0")/common.sh"
n=${TRACE_RSS_COPIES:-20}
h100=$(ls -S testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | head -1)
rss() { /usr/bin/time -f %M -o "$work/t" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 2; }; cat "$work/t"; }
# distinct NAME IN OUT K: IN with each "name" value suffixed by its copy
# number (every op of copy k is op@k, 40 bytes longer)
distinct() {
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import re, sys
src, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, "bench")
from gen_big_trace import split
head, body, tail = split(src)
with open(out, "wb") as f:
    f.write(head)
    for k in range(copies):
        pad = (b"@copy-%06d-" % k) + b"x" * 28
        f.write((b"," if k else b"") + re.sub(rb'("name": ?"[^"\\]*)', lambda m: m.group(1) + pad, body))
    f.write(tail)
PY
}
if [ -n "${TRACE_RSS_GB:-}" ]; then
  ref=${TRACE_RSS_REF:-}
  # measure BINARY FILE — "RSS_KB CPU_S" of one ingest into a new store
  measure() {
    rm -f "$work/s.db"*
    /usr/bin/time -f '%M %U %S' -o "$work/t" "$1" --store "$work/s.db" ingest -q "$2" >/dev/null 2>&1 || { echo "failed: $1 ingest $2" >&2; exit 2; }
    awk '{printf "%d %.1f\n", $1, $2 + $3}' "$work/t"
  }
  slope() { [ -n "$1" ] && awk -v a="$1" -v b="$2" -v x="$3" -v y="$4" 'BEGIN{printf "%.1f", (b-a)*1024/(y-x)}' || echo -; }
  printf '%-9s %7s %10s %9s %8s %7s' names "size GB" events "RSS MB" "B/event" "CPU s"
  [ -n "$ref" ] && printf ' | %9s %8s %7s' "ref MB" "B/event" "CPU s"
  echo
  names_modes=${TRACE_RSS_NAMES:-distinct}
  [ "${TRACE_RSS_ORDER:-}" = kineto ] && names_modes=${TRACE_RSS_NAMES:-kept distinct}
  for names in $names_modes; do
    prev_rss="" prev_ev="" prev_ref=""
    for gb in $TRACE_RSS_GB; do
      f="$work/sized.pt.trace.json"
      read -r _ ev < <(/usr/bin/python3 bench/gen_sized_trace.py ${TRACE_RSS_ORDER:+--kineto-order} \
        $([ "$names" = kept ] && echo --keep-names) "$h100" "$f" "$(awk -v g="$gb" 'BEGIN{printf "%d", g*1e9}')")
      read -r r cpu < <(measure "$build/amdahl" "$f")
      printf '%-9s %7.2f %10d %9.1f %8s %7s' "$names" "$(awk -v s="$(stat -c %s "$f")" 'BEGIN{print s/1e9}')" "$ev" \
        "$(awk -v r="$r" 'BEGIN{print r/1024}')" "$(slope "$prev_rss" "$r" "$prev_ev" "$ev")" "$cpu"
      if [ -n "$ref" ]; then
        read -r rr rcpu < <(measure "$ref" "$f")
        printf ' | %9.1f %8s %7s' "$(awk -v r="$rr" 'BEGIN{print r/1024}')" "$(slope "$prev_ref" "$rr" "$prev_ev" "$ev")" "$rcpu"
        prev_ref=$rr
      fi
      echo
      prev_rss=$r prev_ev=$ev
      rm -f "$f" "$work/s.db"*
    done
  done
  exit 0
fi
printf '%-10s %8s %10s %10s %10s %12s\n' shape copies events "RSS MB" "wc RSS MB" "B/event"
for shape in repeated distinct; do
  prev_rss="" prev_ev=""
  for c in "$n" $((3 * n)); do
    f="$work/$shape-$c.pt.trace.json"
    if [ $shape = repeated ]; then
      /usr/bin/python3 bench/gen_big_trace.py "$h100" "$f" "$c"
    else
      distinct "$h100" "$f" "$c"
    fi
    ev=$(grep -o '"ph"' "$f" | wc -l)
    r=$(rss "$build/amdahl" --store "$work/s-$shape-$c.db" ingest -q "$f")
    w=$(rss wc -c "$f")
    slope="-"
    [ -n "$prev_rss" ] && slope=$(awk -v a="$prev_rss" -v b="$r" -v x="$prev_ev" -v y="$ev" 'BEGIN{printf "%.1f", (b-a)*1024/(y-x)}')
    printf '%-10s %8d %10d %10.1f %10.1f %12s\n' $shape "$c" "$ev" "$(awk -v r="$r" 'BEGIN{print r/1024}')" "$(awk -v r="$w" 'BEGIN{print r/1024}')" "$slope"
    prev_rss=$r prev_ev=$ev
    rm -f "$f" "$work/s-$shape-$c.db"*
  done
done
