#!/bin/bash
# trace.sh BUILD_DIR — speed and memory of trace ingest.
# For the largest real traces (and a ~450 MB one made by repeating a real
# H100 trace with shifted timestamps, written to /tmp), as .json and
# .json.gz: the reader alone (bench/trace_parse) and a full `amdahl
# ingest`, in MB/s of JSON, events/s and peak RSS, next to `zcat` and
# Python's json.load on the same file; .json.gz also with zlib's inflate
# (AMDAHL_GUNZIP=zlib) next to ISA-L's, the default. Targets: >= 300 MB/s of raw JSON
# on one core; .json.gz within 1.3x of zcat; peak RSS < 100 MB.
. "$(dirname "$0")/common.sh"
parse="$build/bench/trace_parse" # built by `make bench`
floor="$build/bench/yajl_floor"   # yajl alone: the tokenizer's floor
make -s O="$build" "$parse" "$floor" || exit 2

h100=$(ls -S testdata/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | head -1)
inputs=("$h100")
[ -f ../shared/data/public/traces/hta-rank0-of-16.json.gz ] && inputs+=(../shared/data/public/traces/hta-rank0-of-16.json.gz)
copies=${BENCH_COPIES:-57}
echo "making a larger trace: $copies copies of $(basename "$h100") with shifted timestamps ..."
/usr/bin/python3 bench/gen_big_trace.py "$h100" "$work/big.pt.trace.json" "$copies"
gzip -k -6 "$work/big.pt.trace.json"
i=0
for f in "${inputs[@]}"; do
  i=$((i + 1)); zcat "$f" >"$work/real$i.pt.trace.json"; cp "$f" "$work/real$i.pt.trace.json.gz"
done

# measure CMD... -> "cpu_s wall_s max_rss_kb" (cpu = user + sys: the machine
# may be shared, so speeds are per CPU-second of one core; wall shown too)
measure() {
  /usr/bin/time -f '%U %S %e %M' -o "$work/t" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4}' "$work/t"
}
row() { # NAME KIND TOOL CPU WALL BYTES EVENTS RSS_KB
  printf '%-24s %-8s %-20s %7.2f %7.2f %7s %11s %8.1f\n' "$1" "$2" "$3" "$4" "$5" "$(mbs "$6" "$4")" \
    "$( [ -n "$7" ] && awk -v e="$7" -v s="$4" 'BEGIN{printf "%.0f", e/(s>0?s:0.001)}')" "$(awk -v r="$8" 'BEGIN{print r/1024}')"
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN{ if (s <= 0) s = 0.001; printf "%.0f", b / 1e6 / s }'; }

printf '\n%-24s %-8s %-20s %7s %7s %7s %11s %8s\n' file kind tool "cpu s" "wall s" "MB/s" "events/s" "RSS MB"
for base in "$work"/real*.pt.trace.json "$work/big.pt.trace.json"; do
  bytes=$(stat -c %s "$base")
  name="$(basename "$base" .pt.trace.json) ($((bytes / 1000000)) MB)"
  for f in "$base" "$base.gz"; do
    kind=json; [ "${f%.gz}" != "$f" ] && kind=json.gz
    read -r cpu wall rss <<<"$(measure "$parse" "$f")"
    read -r _ events <"$work/out"
    row "$name" "$kind" "amdahl reader" "$cpu" "$wall" "$bytes" "$events" "$rss"
    rm -f "$work/s.db"*
    read -r cpu wall rss <<<"$(measure "$root/$build/amdahl" --store "$work/s.db" ingest "$f")"
    row "" "$kind" "amdahl ingest (all)" "$cpu" "$wall" "$bytes" "$events" "$rss"
    if [ "$kind" = json.gz ]; then
      read -r cpu wall rss <<<"$(AMDAHL_GUNZIP=zlib measure "$parse" "$f")"
      row "" "$kind" "reader, zlib inflate" "$cpu" "$wall" "$bytes" "$events" "$rss"
      read -r cpu wall rss <<<"$(measure sh -c "zcat '$f' >/dev/null")"
      row "" "$kind" "zcat >/dev/null" "$cpu" "$wall" "$bytes" "" "$rss"
    else
      read -r cpu wall rss <<<"$(measure "$floor" "$f")"
      row "" "$kind" "yajl alone (floor)" "$cpu" "$wall" "$bytes" "" "$rss"
      read -r cpu wall rss <<<"$(measure /usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f")"
      row "" "$kind" "python3 json.load" "$cpu" "$wall" "$bytes" "" "$rss"
    fi
    name=""
  done
done
echo "MB/s and events/s per CPU second (user+sys); 'amdahl ingest (all)' adds sha256, detection and the SQLite write."
echo "'yajl alone (floor)': yajl with no callbacks on the same bytes, on one thread, as the reader configures it;"
echo "the reader's tokenizing runs on one thread, so its wall time cannot go below that row's."
