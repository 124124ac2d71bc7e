# keys.sh — `amdahl keys` and the closest-name guardrails, on the bundled
# CPU sweep: keys lists the metrics with their point counts and the params
# and tags with their runs and distinct values (each checked against
# sqlite3 on the store, through the metric_point extension); --json
# validates against docs/schema/keys.schema.json; and a --metric or --axis
# that no run has, a wrong command name or a wrong sweep is an error
# (exit 2) naming the closest right name, with nothing written; a key of
# amdahl.yaml that amdahl does not read is a warning naming the closest;
# --store naming a directory says so; stats names a param that one
# configuration's runs differ in (the batch-size sweep pooled at n = 1).
test_description='amdahl keys; a wrong metric, param, command or sweep names the closest'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
S=cpu-strong-scaling
test_lazy_prereq JSONSCHEMA '/usr/bin/python3 -c "import jsonschema"'

test_expect_success 'setup: the CPU sweep' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU"
'
test_expect_success SQLITE3 'keys: metrics with their point counts, as sqlite3 counts them' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" keys $S
	want=$(q "$TMP/cpu.db" "SELECT d.s, count(*) FROM metric_point m JOIN dict d ON d.id = m.key_id GROUP BY d.s ORDER BY d.s" | tr "|" " ")
	got=$(printf "%s\n" "$OUT" | sed -n "/^metrics/,/^params/p" | sed -n "s/^  \([^ ]*\) *\([0-9]*\)$/\1 \2/p")
	test_eq "$want" "$got"
	test_contains "epoch_time_s" "$got"
'
test_expect_success SQLITE3 'keys: params with their runs and distinct values, as sqlite3 counts them' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" keys
	want=$(q "$TMP/cpu.db" "SELECT d.s, count(DISTINCT p.run_id), count(DISTINCT p.value) FROM param p JOIN dict d ON d.id = p.key_id GROUP BY d.s ORDER BY d.s" | tr "|" " ")
	got=$(printf "%s\n" "$OUT" | sed -n "/^params/,/^tags/p" | sed -n "s/^  \([^ ]*\) *\([0-9]*\) runs, \([0-9]*\) values\{0,1\}:.*/\1 \2 \3/p")
	test_eq "$want" "$got"
	test_contains "world_size" "$OUT"
	test_contains "4 values: 1, 2, 4, 8" "$OUT"
'
test_expect_success JSONSCHEMA 'keys --json validates against its schema' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" keys $S --json
	printf "%s\n" "$OUT" >"$TMP/keys.json"
	test_eq ok "$(/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/json_schema_check.py" "$AMDAHL_ROOT/docs/schema" keys "$TMP/keys.json" 2>&1)"
	test_eq "1 2 4 8" "$(json_get "$TMP/keys.json" "\" \".join(next(p for p in d[\"params\"] if p[\"name\"] == \"world_size\")[\"values\"])")"
'

test_expect_success 'keys of a sweep the store does not have: exit 2, the sweeps listed' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" keys cpu-strong
	test_contains "amdahl keys: no sweep '\''cpu-strong'\'' in the store; its sweeps: '\''$S'\''" "$ERR"
'
test_expect_success 'stats --metric that no run has: exit 2 naming the closest metric' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" stats --metric epoch_time
	test_eq "amdahl stats: metric '\''epoch_time'\'' is in no run of sweep $S; closest: '\''epoch_time_s'\''; '\''amdahl keys'\'' lists them" "$ERR"
	test_eq "" "$OUT"
'
test_expect_success 'stats --axis that no run has: exit 2 naming the closest param' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" stats --axis world_sise
	test_contains "param '\''world_sise'\'' is in no run of sweep $S; closest: '\''world_size'\''" "$ERR"
'
test_expect_success 'scaling --axis that no run has: exit 2 naming the closest param, not a run' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" scaling --axis world_sise &&
	test_contains "param '\''world_sise'\'' is in no run of sweep $S; closest: '\''world_size'\''" "$ERR" &&
	test_not_contains "is not a whole number" "$ERR"
'
test_expect_success PYTHON 'stats and scaling --axis n: the world size, the n the table names (as without --axis)' '
	"$AMDAHL" --store "$TMP/cpu.db" stats >"$TMP/axis-default.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats --axis n &&
	test_eq "$(cat "$TMP/axis-default.txt")" "$OUT" &&
	test_contains " by n (world size)," "$OUT" &&
	"$AMDAHL" --store "$TMP/cpu.db" stats --axis n --json >"$TMP/axis-n.json" &&
	test_eq "n True" "$(json_get "$TMP/axis-n.json" "\"%s %s\" % (d[\"sweeps\"][0][\"axis\"], d[\"sweeps\"][0][\"scaling\"])")" &&
	"$AMDAHL" --store "$TMP/cpu.db" scaling >"$TMP/axis-default.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" scaling --axis n &&
	test_eq "$(cat "$TMP/axis-default.txt")" "$OUT" &&
	test_status 0 "$AMDAHL" stats --help &&
	test_contains "--axis n is the world size (the default)" "$OUT"
'
test_expect_success 'report build --metric that no run has: exit 2, no report written' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build --metric epoch_time -o "$TMP/rep"
	test_contains "closest: '\''epoch_time_s'\''" "$ERR"
	test_path_is_missing "$TMP/rep/report.pdf"
'
test_expect_success 'gate and compare --metric that no run has: exit 2 naming the closest' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline $S:ddp --candidate $S:fsdp --metric epoch_time
	test_contains "closest: '\''epoch_time_s'\''" "$ERR"
	test_not_contains "share no configuration" "$ERR$OUT"
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" compare --baseline $S:ddp --candidate $S:fsdp --metric epoch_time
	test_contains "closest: '\''epoch_time_s'\''" "$ERR"
'
test_expect_success 'a right --metric and --axis still work' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats --metric epoch_time_s &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats --axis num_gpus
'
test_expect_success 'a wrong command names the closest' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" statz
	test_eq "amdahl: '\''statz'\'' is not a command; closest: '\''stats'\'', '\''gate'\''; see '\''amdahl --help'\''" "$ERR"
	test_status 2 "$AMDAHL" help statz
	test_contains "closest: '\''stats'\''" "$ERR"
'
test_expect_success 'amdahl help CMD without an installed page prints the command'\''s help' '
	test_status 0 "$AMDAHL" help keys
	test_contains "usage: amdahl keys" "$OUT"
'
test_expect_success 'amdahl.yaml: a key amdahl does not read is a warning naming the closest' '
	printf "gate:\n  treshold: 0.1\n  metrics:\n    epoch_time_s: {direciton: lower}\nmial:\n  to: x\n" >"$TMP/typo.yaml" &&
	test_status 0 "$AMDAHL" --config "$TMP/typo.yaml" --store "$TMP/cpu.db" stats
	test_contains "amdahl stats: warning: $TMP/typo.yaml: unknown key '\''gate.treshold'\'' (ignored); closest: '\''threshold'\''" "$ERR"
	test_contains "unknown key '\''gate.metrics.epoch_time_s.direciton'\'' (ignored); closest: '\''direction'\''" "$ERR"
	test_contains "unknown key '\''mial'\'' (ignored); closest: '\''mail'\''" "$ERR"
	printf "gate:\n  threshold: 0.1\n  on_insufficient: warn\nrun:\n  n_params: [world_size]\n" >"$TMP/ok.yaml" &&
	test_status 0 "$AMDAHL" --config "$TMP/ok.yaml" --store "$TMP/cpu.db" stats
	test_eq "" "$ERR"
'
test_expect_success SQLITE_STORE '--store naming a directory says so (was: disk I/O error)' '
	mkdir -p "$TMP/dir" &&
	test_status 2 "$AMDAHL" --store "$TMP/dir" stats
	test_eq "amdahl stats: $TMP/dir: is a directory; --store names the store'\''s file (e.g. $TMP/dir/amdahl.db)" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/dir" ingest -q "$CPU"
	test_contains "is a directory" "$ERR"
'
test_expect_success 'stats names the param a configuration pools (GPU batch-size sweep), and only there' '
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$TMP/tb.db" ingest -q "$DATA/tensorboard" &&
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" stats
	test_eq 2 "$(printf "%s\n" "$OUT" | grep -c "^note: strategy .* n=1 pools 12 runs of 4 configurations that differ in param global_batch_size (")"
	test_contains "split them with --by param.global_batch_size, or scale over them with --axis global_batch_size" "$OUT"
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" stats --by param.global_batch_size
	test_not_contains "note: strategy" "$OUT"
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats
	test_not_contains "note: strategy" "$OUT"
	test_status 0 "$AMDAHL" --store "$TMP/tb.db" stats
	test_not_contains "pools" "$OUT"
'
test_expect_success 'the report says so too and draws no finding from the pooled points (energy, spread)' '
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" report build -o "$TMP/gpurep" &&
	md=$(cat "$TMP/gpurep/summary.md") &&
	test_eq 2 "$(printf "%s\n" "$md" | grep -c "^- [a-z0-9]* at n = 1 pools 12 runs of 4 configurations that differ in param global_batch_size (8, 16, 32, 64): its numbers mix them, so no finding is drawn from it")" &&
	test_not_contains "Energy per sample is lowest" "$md" &&
	test_not_contains "Largest run-to-run spread: bf16 at n = 1" "$md" &&
	test_not_contains "Largest run-to-run spread: fp32 at n = 1" "$md" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/cpurep" &&
	test_not_contains "pools" "$(cat "$TMP/cpurep/summary.md")" &&
	test_contains "Largest run-to-run spread" "$(cat "$TMP/cpurep/summary.md")"
'

test_expect_success 'stats says when phases overlap (CPU traces), with the largest sum as the JSON gives it' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats
	"$AMDAHL" --store "$TMP/cpu.db" stats --json >"$TMP/cpu-stats.json"
	want=$(json_get "$TMP/cpu-stats.json" "\"%.0f\" % max(100 * sum(p[\"phase_share\"][k] for k in (\"compute\", \"communication\", \"memory\", \"other\", \"idle\")) for st in d[\"sweeps\"][0][\"strategies\"] for p in st[\"points\"] if p.get(\"phase_share\"))")
	test_contains "phases overlap (work on concurrent threads, as in CPU traces): their shares add up to as much as $want% of the trace window" "$OUT"
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" stats
	test_not_contains "phases overlap" "$OUT"
'

test_done
