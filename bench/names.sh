#!/bin/bash
# names.sh — peak memory for absurd names (issue 20 item 11), next to the
# same ingest of the unmodified file in the same run (the reference):
# a bundled trace with one op name of 600 kB (stored capped at 4096
# bytes) and of 50 MB (refused at the 1 MiB JSON token limit), and the
# bundled py-spy dump with a 4096-frame stack (stored) and 100 k frames
# (refused above 2 MiB). The inputs are made by tests/oracle/name_cap.py.
# Target: every absurd case within a few MB of its reference.
# Usage: bench/names.sh [BUILD_DIR]
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/$build/amdahl"
nc="$root/tests/oracle/name_cap.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=$(ls "$root"/testdata/cpu-strong-scaling/mlruns/4/23bd7a6253644b8ca7b3179690df1c53/artifacts/traces/rank0.*)
dump="$root/testdata/pyspy/calendarbot.dump.json"
/usr/bin/python3 "$nc" trace "$trace" "$tmp/long.pt.trace.json.gz"
/usr/bin/python3 "$nc" bigtrace "$trace" "$tmp/big50.pt.trace.json.gz" 50000000 >/dev/null
/usr/bin/python3 "$nc" dump "$dump" "$tmp/d4096.json" 4096 json
/usr/bin/python3 "$nc" dump "$dump" "$tmp/deep.txt" 100000 txt >/dev/null
/usr/bin/python3 "$nc" dump "$dump" "$tmp/deep.json" 100000 json
row() { # LABEL FILE
  rm -f "$tmp/s.db"
  /usr/bin/time -o "$tmp/time" -f '%e %M' "$bin" --store "$tmp/s.db" ingest -q "$2" >/dev/null 2>"$tmp/err"
  local rc=$?
  read -r secs kb < <(tail -1 "$tmp/time")
  printf '%-44s exit %d  %5.2f s  peak RSS %6.1f MB\n' "$1" "$rc" "$secs" "$(echo "$kb / 1024" | bc -l)"
}
row "trace as bundled (reference)" "$trace"
row "trace, op names of 500-600 kB (stored capped)" "$tmp/long.pt.trace.json.gz"
row "trace, one op name of 50 MB (refused)" "$tmp/big50.pt.trace.json.gz"
row "py-spy dump --json as bundled (reference)" "$dump"
row "py-spy dump --json, 4096 frames (stored)" "$tmp/d4096.json"
row "py-spy dump text, 100 k frames (refused)" "$tmp/deep.txt"
row "py-spy dump --json, 100 k frames (refused)" "$tmp/deep.json"
