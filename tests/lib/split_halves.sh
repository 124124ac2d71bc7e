#!/bin/sh
# tests/lib/split_halves.sh — the H100 batch sweep's runs split by repeat
# into two MLflow stores of one experiment each: repeats 0 and 1 under
# DST/a/mlruns, repeat 2 under DST/b/mlruns (a baseline and a candidate
# of the same configurations, for gate.sh and json_schema.sh).
#   tests/lib/split_halves.sh SRC_MLRUNS DST
set -eu
src=$1 dst=$2
for half in a b; do
	mkdir -p "$dst/$half/mlruns/1"
	cp "$src/1/meta.yaml" "$dst/$half/mlruns/1/"
done
for d in "$src"/1/*/; do
	[ -f "$d/params/repeat" ] || continue
	if [ "$(cat "$d/params/repeat")" = 2 ]; then half=b; else half=a; fi
	cp -r "$d" "$dst/$half/mlruns/1/"
done
