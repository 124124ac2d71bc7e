#!/bin/bash
# profiles.sh BUILD_DIR — speed and memory of the region readers on large
# inputs made from real ones (bench/gen_big_profiles.py): a 20 MB cProfile
# dump (the public Python 3.9 PyTorch dump's functions repeated) and a
# 100 MB Nsight Systems export (the public nsys 2024.6 export's events
# repeated), each ingested by amdahl next to a reference measured in the
# same run: Python's pstats loading the dump, and the sqlite3 shell
# summing the export's kernels per device and name (what `nsys stats`
# cuda_gpu_kern_sum does). Figures are printed, never asserted.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pub=../shared/data/public
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (Debian package 'time'); make deps"; exit 2; }
if [ ! -f "$pub/cprofile/mmvae-torch-py39.pstats" ] || [ ! -f "$pub/nsys/fuser-report2-nsys2024.6.sqlite" ]; then
  echo "profiles: no ../shared/data/public samples to grow; skipped"
  exit 0
fi
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "making a 20 MB cProfile dump and a 100 MB Nsight Systems export ..."
/usr/bin/python3 bench/gen_big_profiles.py cprofile "$pub/cprofile/mmvae-torch-py39.pstats" "$work/big.prof" 20
/usr/bin/python3 bench/gen_big_profiles.py nsys "$pub/nsys/fuser-report2-nsys2024.6.sqlite" "$work/big.sqlite" 100

measure() { # CMD... -> "cpu_s wall_s max_rss_kb"
  /usr/bin/time -f '%U %S %e %M' -o "$work/t" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4}' "$work/t"
}
row() { # NAME TOOL CPU WALL BYTES RSS_KB
  printf '%-36s %-34s %7.2f %7.2f %7.1f %8.1f\n' "$1" "$2" "$3" "$4" \
    "$(awk -v b="$5" -v s="$3" 'BEGIN{ if (s <= 0) s = 0.001; print b / 1e6 / s }')" \
    "$(awk -v r="$6" 'BEGIN{print r/1024}')"
}
printf '\n%-36s %-34s %7s %7s %7s %8s\n' file tool "cpu s" "wall s" "MB/s" "RSS MB"
b=$(stat -c %s "$work/big.prof")
read -r cpu wall rss <<<"$(measure "$build/amdahl" --store "$work/c.db" ingest "$work/big.prof")"
row "cProfile ($((b / 1000000)) MB, $(sqlite3 "$work/c.db" 'SELECT sum(n) FROM region_pack') fns)" "amdahl ingest" "$cpu" "$wall" "$b" "$rss"
read -r cpu wall rss <<<"$(measure /usr/bin/python3 -c 'import pstats,sys; pstats.Stats(sys.argv[1])' "$work/big.prof")"
row "" "python3 pstats.Stats (reference)" "$cpu" "$wall" "$b" "$rss"
b=$(stat -c %s "$work/big.sqlite")
k=$(sqlite3 "$work/big.sqlite" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')
read -r cpu wall rss <<<"$(measure "$build/amdahl" --store "$work/n.db" ingest "$work/big.sqlite")"
row "nsys export ($((b / 1000000)) MB, $k kernels)" "amdahl ingest" "$cpu" "$wall" "$b" "$rss"
read -r cpu wall rss <<<"$(measure sqlite3 "$work/big.sqlite" 'SELECT deviceId, demangledName, count(*), sum("end" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2')"
row "" "sqlite3 kernel sum (reference)" "$cpu" "$wall" "$b" "$rss"
