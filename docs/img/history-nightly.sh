#!/bin/sh
# history-nightly.sh — remakes docs/img/history-nightly.png, the README's
# history chart, from the bundled data: 24 commits made of the CPU sweep's
# real ddp n=8 runs (tests/lib/mlruns_groups.py, noise seed 1, every epoch
# time ×1.20 from c12 on: tests/lib/histories.sh), then `amdahl history
# --png`. Run by `make docs-img`; AMDAHL names the binary (default
# build/amdahl).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AMDAHL=${AMDAHL:-$ROOT/build/amdahl}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$ROOT/tests/lib/histories.sh"
history_mlruns "$ROOT" "$TMP/mlruns"
"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns"
"$AMDAHL" --store "$TMP/h.db" history epoch_time_s --by tag.git_commit --sweep nightly \
	--png "$ROOT/docs/img/history-nightly.png"
