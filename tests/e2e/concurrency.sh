# concurrency.sh — two `amdahl ingest` processes on one store at once,
# starting on a store that does not exist yet: on different files and on
# the same files (also with -j 2 each). Both exit 0, nothing fails with
# "database is locked", every run directory is one source, and the
# points and params are exactly those of the files (none twice).
. "$(dirname "$0")/lib.sh"

big=$(realpath "$TMP")/big
mkdir -p "$big/a" "$big/b"
for k in 1 2 3 4 5 6; do
  half=a; [ "$k" -gt 3 ] && half=b
  cp -r "$DATA/cpu-strong-scaling/mlruns/4" "$big/$half/$k"
  sed -i "s/^name: .*/name: cpu-copy-$k/" "$big/$half/$k/meta.yaml"
  for m in "$big/$half/$k"/*/meta.yaml; do
    sed -i -E "s/^(run_id|run_uuid): (.*)/\1: \2-$k/" "$m"
  done
done
total=$(find "$big" -mindepth 4 -maxdepth 4 -name meta.yaml | wc -l)
points=$(find "$big" -path '*/metrics/*' -type f -exec cat {} + | awk 'NF' | wc -l)
params=$(find "$big" -path '*/params/*' -type f | wc -l)
eq "files: 6 copies of 29 runs" 174 "$total"

# both CASE STORE ARGS_A -- ARGS_B: run the two ingests at once
both() {
  local label=$1 s=$2; shift 2
  local a=() b=() side=a
  for x in "$@"; do
    if [ "$x" = -- ]; then side=b; continue; fi
    if [ $side = a ]; then a+=("$x"); else b+=("$x"); fi
  done
  "$AMDAHL" --store "$s" ingest -q "${a[@]}" >"$TMP/a.out" 2>"$TMP/a.err" &
  local pa=$!
  "$AMDAHL" --store "$s" ingest -q "${b[@]}" >"$TMP/b.out" 2>"$TMP/b.err" &
  local pb=$!
  wait $pa; local ra=$?
  wait $pb; local rb=$?
  eq "$label: both exit 0" "0 0" "$ra $rb"
  local errs; errs=$(cat "$TMP/a.err" "$TMP/b.err")
  eq "$label: no error output (no 'database is locked')" "" "$errs"
  eq "$label: one source per run directory" "$total" "$(q "$s" "SELECT count(*) FROM source WHERE kind='mlflow-run'")"
  eq "$label: sources unique by path (run directories and traces)" \
    "$(q "$s" 'SELECT count(*) FROM source')" "$(q "$s" 'SELECT count(DISTINCT path) FROM source')"
  eq "$label: one run per run directory" "$total" "$(q "$s" 'SELECT count(*) FROM run')"
  eq "$label: metric points = lines of the files (none twice)" "$points" "$(q "$s" 'SELECT count(*) FROM metric_point')"
  eq "$label: params = param files" "$params" "$(q "$s" 'SELECT count(*) FROM param')"
  eq "$label: integrity_check" ok "$(q "$s" 'PRAGMA integrity_check')"
}

both "different files" "$TMP/diff.db" "$big/a" -- "$big/b"
for round in 1 2 3; do
  both "same files, round $round" "$TMP/same$round.db" "$big" -- "$big"
done
both "same files, -j 2 each" "$TMP/samej.db" -j 2 "$big" -- -j 2 "$big"
both "overlapping files" "$TMP/overlap.db" "$big/a" "$big/b" -- "$big/b" "$big/a"
# and a third ingest of everything onto a filled store changes nothing
before=$(store_digest "$TMP/diff.db")
both "again onto a full store" "$TMP/diff.db" "$big" -- "$big"
eq "again onto a full store: store unchanged" "$before" "$(store_digest "$TMP/diff.db")"
