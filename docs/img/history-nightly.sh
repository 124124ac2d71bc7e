#!/bin/sh
# history-nightly.sh — remakes docs/img/history-nightly.png, the README's
# history chart, from the bundled data: 24 commits made of the CPU sweep's
# real ddp n=8 runs (tests/lib/mlruns_groups.py, noise seed 1, every epoch
# time ×1.20 from c12 on, as tests/e2e/history.sh), then `amdahl history
# --png`. Run by `make docs-img`; AMDAHL names the binary (default
# build/amdahl).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AMDAHL=${AMDAHL:-$ROOT/build/amdahl}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LABELS=$(seq -f 'c%02g' 0 23 | paste -sd, -)
slow=$(for i in $(seq 12 23); do printf -- "--slow c%02d=1.20 " "$i"; done)
# shellcheck disable=SC2086 # $slow is a list of options
/usr/bin/python3 "$ROOT/tests/lib/mlruns_groups.py" "$ROOT/testdata/cpu-strong-scaling/mlruns/4" \
	"$TMP/mlruns" --exp-id 6 --name nightly --runs ddp-n8 --key tag.git_commit \
	--labels "$LABELS" $slow --noise 1
"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns"
"$AMDAHL" --store "$TMP/h.db" history epoch_time_s --by tag.git_commit --sweep nightly \
	--png "$ROOT/docs/img/history-nightly.png"
