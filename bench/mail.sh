#!/bin/bash
# mail.sh — `amdahl mail` with a 10 MB attachment: the dry run (MIME and
# base64 by libcurl, captured in-process) and a real send to
# tests/e2e/smtp_server.py on 127.0.0.1. The attachment is streamed, not
# loaded: target peak RSS under 32 MB whatever the PDF's size. Prints the
# best of 3 wall-clock runs and the peak RSS of each path.
# Usage: bench/mail.sh [BUILD_DIR]
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/$build/amdahl"
export AMDAHL_TEMPLATES="$root/templates"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
"$bin" --store "$tmp/a.db" ingest "$root/testdata/cpu-strong-scaling/mlruns" >/dev/null
"$bin" --store "$tmp/a.db" report build -o "$tmp/r" >/dev/null
# The bytes are only transported (base64), so 10 MB of random bytes stand in
# for a large report.pdf.
head -c 10000000 /dev/urandom >"$tmp/r/report.pdf"
mkdir -p "$tmp/s"
/usr/bin/python3 "$root/tests/e2e/smtp_server.py" "$tmp/s" "$tmp/port" 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
measure() { # LABEL ARGS... -> "best_s rss_kb"
  local best= rss=
  for _ in 1 2 3; do
    if ! /usr/bin/time -o "$tmp/time" -f '%e %M' "$bin" mail --to a@example.org "$@" "$tmp/r" >/dev/null 2>"$tmp/err"; then
      echo "bench/mail.sh: amdahl mail $*: $(cat "$tmp/err")" >&2
      exit 1
    fi
    read -r w m <"$tmp/time"
    best=$(awk -v a="${best:-$w}" -v b="$w" 'BEGIN{print (b < a ? b : a)}')
    rss=$m
  done
  echo "$best $rss"
}
read -r dw dr < <(measure --dry-run "$tmp/out.eml")
read -r sw sr < <(measure --smtp "smtp://127.0.0.1:$port")
printf 'mail, 10 MB attachment (%s bytes as .eml): dry run best %s s, peak RSS %s KB; SMTP send to 127.0.0.1 best %s s, peak RSS %s KB (target < 32768 KB)\n' \
  "$(stat -c %s "$tmp/out.eml")" "$dw" "$dr" "$sw" "$sr"
