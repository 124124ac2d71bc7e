# run_columns.sh — amdahl.yaml's run lists (run.n_params, …) changed
# after an ingest take effect without deleting the store: the next
# command that reads the store derives the run columns again from the
# stored params (checked against sqlite3 on the params), says how many
# runs changed, once; a command that does not otherwise read amdahl.yaml
# (regions) does it too, and going back to the defaults restores the
# ingest's columns. A store that cannot be written keeps its columns
# with a warning. On ClickHouse the columns are re-derived in the copy of
# the rows each command reads (the server keeps the ingest's), so the
# note comes with every command while the lists differ.
test_description='a changed run.n_params takes effect without deleting the store'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
test_lazy_prereq NOT_ROOT 'test "$(id -u)" != 0'

# n of each run as the store holds it (on ClickHouse the server's rows,
# in the copy amdahl pull makes: store_file), and the param P's value
# beside it, as sqlite3 reads them
cols() { sqlite3 "$(store_file "$1")" "SELECT r.ext_id || ' ' || coalesce(r.n, '') FROM run r ORDER BY r.ext_id"; }
param_as_n() {
	sqlite3 "$(store_file "$1")" "SELECT r.ext_id || ' ' || coalesce((SELECT p.value FROM param p JOIN dict d ON d.id = p.key_id WHERE p.run_id = r.id AND d.s = '$2'), r.n, '') FROM run r ORDER BY r.ext_id"
}
stored_strategies() { sqlite3 "$(store_file "$1")" "SELECT group_concat(DISTINCT strategy) FROM (SELECT strategy FROM run ORDER BY strategy)"; }
# n of each run, and the strategies, as a command sees them (runs --json)
seen() {
	"$AMDAHL" --store "$1" runs --json 2>/dev/null |
		json_get - "\"\\n\".join(sorted(\"%s %s\" % (r[\"id\"], \"\" if r[\"n\"] is None else r[\"n\"]) for r in d[\"runs\"]))"
}
seen_strategies() {
	"$AMDAHL" --store "$1" runs --json 2>/dev/null |
		json_get - "\",\".join(sorted(set(r[\"strategy\"] for r in d[\"runs\"])))"
}
NOTE_CH="run lists for this command (the ClickHouse store keeps the ingest's)"

test_expect_success SQLITE3 'setup: the CPU sweep ingested with the default lists' '
	mkdir -p "$TMP/w" && cd "$TMP/w" &&
	"$AMDAHL" --store s.db ingest -q "$CPU" &&
	cols s.db >"$TMP/before" &&
	test_eq "$(param_as_n s.db world_size)" "$(cat "$TMP/before")" &&
	test_eq "$(cat "$TMP/before")" "$(seen s.db)"
'
test_expect_success SQLITE3 'run.n_params changed: stats sees the new n, the store keeps it, once' '
	cd "$TMP/w" &&
	printf "run:\n  n_params: [global_batch_size]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db stats --json &&
	test_contains "amdahl stats: note: the strategy, n, nodes, rank and repeat of 29 runs re-derived from the stored params under amdahl.yaml'\''s run lists" "$ERR" &&
	test_eq "256" "$(printf "%s\n" "$OUT" | json_get - "\" \".join(sorted(set(str(p[\"n\"]) for s in d[\"sweeps\"] for c in s[\"strategies\"] for p in c[\"points\"])))")" &&
	test_eq "$(param_as_n s.db global_batch_size)" "$(seen s.db)" &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	if test_have_prereq SQLITE_STORE; then
		test_eq "$(param_as_n s.db global_batch_size)" "$(cols s.db)" &&
		test_eq "" "$ERR"
	else
		test_eq "$(cat "$TMP/before")" "$(cols s.db)" &&
		test_contains "amdahl runs: note: the strategy, n, nodes, rank and repeat of 29 runs re-derived from the stored params under amdahl.yaml'\''s $NOTE_CH" "$ERR"
	fi
'
test_expect_success SQLITE3 'a command that reads no other setting (regions) applies the lists too' '
	cd "$TMP/w" &&
	printf "run:\n  n_params: [num_gpus]\n  strategy_params: [backend]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db regions "n=8" -n 1 &&
	test_contains "amdahl regions: note: the strategy, n, nodes, rank and repeat of 29 runs" "$ERR" &&
	test_eq "$(param_as_n s.db num_gpus)" "$(seen s.db)" &&
	test_eq "gloo" "$(seen_strategies s.db)" &&
	if test_have_prereq SQLITE_STORE; then
		test_eq "$(param_as_n s.db num_gpus)" "$(cols s.db)" &&
		test_eq "gloo" "$(stored_strategies s.db)"
	else
		test_eq "ddp,fsdp" "$(stored_strategies s.db)"
	fi
'
test_expect_success SQLITE3 'back to the defaults: the ingest'\''s columns again' '
	cd "$TMP/w" && rm amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	if test_have_prereq SQLITE_STORE; then
		test_contains "under the default run lists" "$ERR"
	else
		test_eq "" "$ERR"
	fi &&
	test_eq "$(cat "$TMP/before")" "$(cols s.db)" &&
	test_eq "$(cat "$TMP/before")" "$(seen s.db)" &&
	test_eq "ddp,fsdp" "$(stored_strategies s.db)" &&
	test_eq "ddp,fsdp" "$(seen_strategies s.db)"
'
test_expect_success SQLITE3,NOT_ROOT,SQLITE_STORE 'a store that cannot be written keeps its columns, with a warning' '
	cd "$TMP/w" && cp s.db ro.db && chmod a-w ro.db &&
	printf "run:\n  n_params: [global_batch_size]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store ro.db runs &&
	test_contains "amdahl runs: warning: " "$ERR" &&
	test_contains "cannot write them" "$ERR" &&
	test_eq "$(cat "$TMP/before")" "$(cols ro.db)" &&
	rm -f amdahl.yaml
'
test_done
