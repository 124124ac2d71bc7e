#!/bin/bash
# tfevents.sh BUILD_DIR — speed and memory of TensorBoard ingest on a
# ~50 MB event file, made by repeating the records of a real one (each
# record keeps its own valid CRCs; the public PyTorch SummaryWriter file
# when ../shared is there, else the bundled sweep's). `amdahl ingest`
# (framing, both CRC32Cs, protobuf-c, the SQLite write of every scalar)
# is shown next to references measured in the same run: cat and
# sha256sum over the same bytes, and Python walking the same TFRecord
# framing without CRCs or decoding. Target: >= 50 MB/s per CPU second,
# peak RSS < 100 MB whatever the file's size.
. "$(dirname "$0")/common.sh"
src=../shared/data/public/tfevents/mmvae-summarywriter.events.out.tfevents.1708473985.g001.3759122.0
[ -f "$src" ] || src=$(find testdata/tensorboard -name 'events.out.tfevents.*' | sort | head -1)
big="$work/run/events.out.tfevents.big"
mkdir -p "$work/run"
size=$(stat -c %s "$src")
copies=$(( (50000000 + size - 1) / size ))
echo "making a ~50 MB event file: $copies copies of $(basename "$src") ($size bytes)"
for _ in $(seq "$copies"); do cat "$src"; done >"$big"
bytes=$(stat -c %s "$big")

measure() {
  /usr/bin/time -f '%U %S %e %M' -o "$work/t" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err"; exit 2; }
  awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4}' "$work/t"
}
row() { # TOOL CPU WALL RSS_KB
  printf '%-34s %7.2f %7.2f %7s %8.1f\n' "$1" "$2" "$3" \
    "$(awk -v b="$bytes" -v s="$2" 'BEGIN{ if (s <= 0) s = 0.001; printf "%.0f", b / 1e6 / s }')" \
    "$(awk -v r="$4" 'BEGIN{print r/1024}')"
}
parse="$build/bench/tfevents_parse" # built by `make bench`
make -s O="$build" "$parse" || exit 2
printf '\n%s: %d MB\n%-34s %7s %7s %7s %8s\n' "$(basename "$big")" $((bytes / 1000000)) tool "cpu s" "wall s" "MB/s" "RSS MB"
read -r cpu wall rss <<<"$(measure "$parse" "$big")"
row "amdahl reader (no store)" "$cpu" "$wall" "$rss"
read -r cpu wall rss <<<"$(measure "$root/$build/amdahl" --store "$work/s.db" ingest "$big")"
row "amdahl ingest (all)" "$cpu" "$wall" "$rss"
points=$(sqlite3 "$work/s.db" "SELECT sum(n) FROM metric_series" 2>/dev/null || echo "?")
read -r cpu wall rss <<<"$(measure cat "$big")"
row "cat >/dev/null" "$cpu" "$wall" "$rss"
read -r cpu wall rss <<<"$(measure sha256sum "$big")"
row "sha256sum" "$cpu" "$wall" "$rss"
read -r cpu wall rss <<<"$(measure /usr/bin/python3 -c '
import struct, sys
f, n = open(sys.argv[1], "rb"), 0
while True:
    h = f.read(12)
    if not h:
        break
    (k,) = struct.unpack("<Q", h[:8])
    f.read(k + 4)
    n += 1
print(n)' "$big")"
row "python3 framing only (no CRC)" "$cpu" "$wall" "$rss"
echo "records: $(cat "$work/out"); metric points stored: $points; MB/s per CPU second (user+sys)"
