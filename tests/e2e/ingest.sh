# ingest.sh — the real sweeps go in with exact counts, each checked
# against the files themselves (find/wc/grep), re-ingesting adds
# nothing, and a changed metric file replaces that run's points.
. "$(dirname "$0")/lib.sh"

cpu=$TMP/cpu
cp -r "$DATA/cpu-strong-scaling/mlruns" "$cpu"
S=$TMP/a.db

# what the files say
runs_files=$(find "$cpu" -mindepth 2 -maxdepth 2 -type d | while read -r d; do [ -f "$d/meta.yaml" ] && echo "$d"; done | wc -l)
finished_files=$(grep -l '^status: 3$' "$cpu"/*/*/meta.yaml | wc -l)
failed_files=$(grep -l '^status: 4$' "$cpu"/*/*/meta.yaml | wc -l)
running_files=$(grep -l '^status: 1$' "$cpu"/*/*/meta.yaml | wc -l)
points_files=$(find "$cpu" -path '*/metrics/*' -type f -exec cat {} + | awk 'NF' | wc -l)
params_files=$(find "$cpu" -path '*/params/*' -type f | wc -l)
tags_files=$(find "$cpu" -path '*/tags/*' -type f | wc -l)
traces_files=$(find "$cpu" -path '*/artifacts/*' -name '*.pt.trace.json*' -type f | wc -l)
units=$((runs_files + traces_files))  # each run directory and each trace is one unit
eq "files: 29 runs" 29 "$runs_files"
eq "files: 24 finished, 4 failed, 1 running" "24 4 1" "$finished_files $failed_files $running_files"

status "cpu sweep ingests" 0 "$AMDAHL" --store "$S" ingest "$cpu"
contains "summary line counts every run directory and trace added" "$units added, 0 replaced, 0 unchanged, 0 failed" "$OUT"
eq "29 runs" "$runs_files" "$(q "$S" 'SELECT count(*) FROM run')"
eq "29 sources, one per run directory" 29 "$(q "$S" "SELECT count(*) FROM source WHERE kind='mlflow-run'")"
eq "24 finished" "$finished_files" "$(q "$S" 'SELECT count(*) FROM run WHERE status=3')"
eq "4 failed" "$failed_files" "$(q "$S" 'SELECT count(*) FROM run WHERE status=4')"
eq "1 running" "$running_files" "$(q "$S" 'SELECT count(*) FROM run WHERE status=1')"
eq "5 not finished" 5 "$(q "$S" 'SELECT count(*) FROM run WHERE status<>3')"
eq "metric points = non-blank lines of the metric files" "$points_files" "$(q "$S" 'SELECT count(*) FROM metric_point')"
eq "params = param files" "$params_files" "$(q "$S" 'SELECT count(*) FROM param')"
eq "tags = tag files" "$tags_files" "$(q "$S" 'SELECT count(*) FROM tag')"
# one run checked value by value against its files
rid=$(basename "$(dirname "$(grep -l '^status: 3$' "$cpu"/*/*/meta.yaml | head -1)")")
rdir=$(find "$cpu" -mindepth 2 -maxdepth 2 -name "$rid")
mf=$(find "$rdir/metrics" -type f | sort | head -1)
key=${mf#"$rdir/metrics/"}
eq "run $rid: $key sum of values" \
  "$(awk 'NF{s+=$2} END{printf "%.6f", s}' "$mf")" \
  "$(q "$S" "SELECT printf('%.6f', sum(value)) FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$rid' AND d.s='$key'")"
eq "run $rid: $key last step" "$(awk 'NF{s=$3} END{print s}' "$mf")" \
  "$(q "$S" "SELECT step FROM metric_point m JOIN run r ON r.id=m.run_id JOIN dict d ON d.id=m.key_id WHERE r.ext_id='$rid' AND d.s='$key' ORDER BY ts_ms DESC, step DESC LIMIT 1")"

# again: nothing new
before=$(store_digest "$S")
status "re-ingest exits 0" 0 "$AMDAHL" --store "$S" ingest "$cpu"
contains "re-ingest: all unchanged" "0 added, 0 replaced, $units unchanged, 0 failed" "$OUT"
eq "re-ingest leaves the store as it was" "$before" "$(store_digest "$S")"

# a changed metric file replaces that run's points, and only those
echo "1700000000000 0.5 999" >>"$mf"
others=$(q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id<>'$rid'")
run_points=$(find "$rdir/metrics" -type f -exec cat {} + | awk 'NF' | wc -l)
status "changed run re-ingests" 0 "$AMDAHL" --store "$S" ingest "$cpu"
contains "one replaced, the rest unchanged" "0 added, 1 replaced, $((units - 1)) unchanged, 0 failed" "$OUT"
eq "changed run: points = its file lines now" "$run_points" \
  "$(q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id='$rid'")"
eq "other runs' points untouched" "$others" \
  "$(q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id<>'$rid'")"
eq "the new point is there" "0.5" \
  "$(q "$S" "SELECT value FROM metric_point m JOIN run r ON r.id=m.run_id WHERE r.ext_id='$rid' AND step=999")"
eq "still 29 runs and one source per unit" "29 $units" "$(q "$S" 'SELECT count(*) FROM run') $(q "$S" 'SELECT count(*) FROM source')"
eq "no facts of a dropped source" 0 \
  "$(q "$S" 'SELECT count(*) FROM metric_point WHERE source_id NOT IN (SELECT id FROM source)')"

# itwinai: launches and their worker runs folded in
it=$DATA/itwinai-layout/mllogs
I=$TMP/it.db
workers_files=$(find "$it" -path '*/tags/mlflow.parentRunId' -type f | wc -l)
launches_files=$(find "$it" -mindepth 4 -maxdepth 4 -name meta.yaml | while read -r m; do
  [ -f "$(dirname "$m")/tags/mlflow.parentRunId" ] || echo "$m"; done | wc -l)
eq "files: 6 itwinai launches" 6 "$launches_files"
status "itwinai layout ingests" 0 "$AMDAHL" --store "$I" ingest "$it"
json=$("$AMDAHL" --store "$I" runs --json)
eq "6 launches listed" "$launches_files" "$(printf '%s' "$json" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')"
eq "every worker run folded into its launch" "$workers_files" \
  "$(printf '%s' "$json" | python3 -c 'import json,sys; print(sum(r["children"] for r in json.load(sys.stdin)["runs"]))')"
eq "workers per launch = its world size" "" \
  "$(printf '%s' "$json" | python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)["runs"] if r["children"]!=r["n"]))')"

# symlink loops in a walked tree are walked once, not followed 64 deep
loop=$TMP/loop
cp -r "$DATA/cpu-strong-scaling/mlruns" "$loop"
ln -s .. "$loop/4/up"
ln -s "$loop" "$loop/4/again"
status "a tree with symlink loops ingests" 0 "$AMDAHL" --store "$TMP/loop.db" ingest "$loop"
eq "symlink loops: each run once" 29 "$(q "$TMP/loop.db" 'SELECT count(*) FROM run')"
