#!/bin/sh
# tests/lib/copy_sweep.sh — an MLflow sweep copied under another name:
# the experiment renamed NAME-copyK and every run given a fresh run id
# (its first two characters replaced by cK), the metrics unchanged. For
# stores holding many sweeps (tests/e2e/clickhouse.sh, bench/clickhouse.sh).
#   tests/lib/copy_sweep.sh SRC DST K
set -eu
src=$1 dst=$2 k=$3
cp -r "$src" "$dst"
for run in "$dst"/mlruns/*/*/; do
	id=$(basename "$run")
	new="c$k${id#??}"
	grep -rl "$id" "$run" | xargs sed -i "s/$id/$new/g"
	mv "$run" "${run%/*/}/$new"
done
sed -i "s/^name: \(.*\)$/name: \1-copy$k/" "$dst"/mlruns/*/meta.yaml
