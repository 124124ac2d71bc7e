#!/bin/bash
# small_files.sh — many small files in one ingest (issue 40 item 8):
# N and 2N one-line py-spy collapsed files (none linked to a run, so
# every one goes through the orphan matching), ingested with -j 2 into a
# new store; time and peak RSS of each, and the ratio 2N/N beside the
# linear reference of 2.0. Before the fix the matching compared every
# unit with every orphan (200,000 files: 3.6x the time of 100,000) and
# every unit carried a 1 KB error buffer (301 MB at 200,000).
# Target: time ratio near 2.0; peak RSS growing by far less than 1 KB a
# unit. N is $SMALL_FILES_N (default 100000; ~2 min for both on 2 cores).
# Usage: bench/small_files.sh [BUILD_DIR]
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/$build/amdahl"
n=${SMALL_FILES_N:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make_files() { # DIR COUNT
  /usr/bin/python3 - "$1" "$2" <<'PYEOF'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    sub = os.path.join(d, "%03d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "p%07d.collapsed.txt" % i), "w") as f:
        f.write("main (train.py:1);step%d (train.py:%d) 3\n" % (i, i % 500 + 2))
PYEOF
}
row() { # COUNT -> prints a row, leaves the seconds in $secs and KB in $kb
  make_files "$tmp/f$1" "$1"
  rm -f "$tmp/s.db"*
  /usr/bin/time -o "$tmp/time" -f '%e %M' "$bin" --store "$tmp/s.db" ingest -q -j 2 "$tmp/f$1" \
    >/dev/null 2>"$tmp/err"
  local rc=$?
  read -r secs kb < <(tail -1 "$tmp/time")
  printf '%-34s exit %d  %7.2f s  peak RSS %6.1f MB\n' "$1 small files, ingest -j 2" "$rc" \
    "$secs" "$(echo "$kb / 1024" | bc -l)"
  rm -rf "$tmp/f$1"
}
row "$n"; s1=$secs k1=$kb
row "$((2 * n))"; s2=$secs k2=$kb
printf '%-34s time x%.2f (linear: x2.00)  RSS +%.1f MB (%.0f bytes a unit)\n' "ratio $((2 * n))/$n" \
  "$(echo "$s2 / $s1" | bc -l)" "$(echo "($k2 - $k1) / 1024" | bc -l)" \
  "$(echo "($k2 - $k1) * 1024 / $n" | bc -l)"
