# run_columns.sh — amdahl.yaml's run lists (run.n_params, …) changed
# after an ingest take effect without deleting the store: the next
# command that reads the store derives the run columns again from the
# stored params (checked against sqlite3 on the params), says how many
# runs changed, once; a command that does not otherwise read amdahl.yaml
# (regions) does it too, and going back to the defaults restores the
# ingest's columns. A store that cannot be written keeps its columns
# with a warning.
test_description='a changed run.n_params takes effect without deleting the store'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
test_lazy_prereq NOT_ROOT 'test "$(id -u)" != 0'

# n of each run as sqlite3 reads it, and the param P's value beside it
cols() { sqlite3 "$1" "SELECT r.ext_id || ' ' || coalesce(r.n, '') FROM run r ORDER BY r.ext_id"; }
param_as_n() {
	sqlite3 "$1" "SELECT r.ext_id || ' ' || coalesce((SELECT p.value FROM param p JOIN dict d ON d.id = p.key_id WHERE p.run_id = r.id AND d.s = '$2'), r.n, '') FROM run r ORDER BY r.ext_id"
}

test_expect_success SQLITE3 'setup: the CPU sweep ingested with the default lists' '
	mkdir -p "$TMP/w" && cd "$TMP/w" &&
	"$AMDAHL" --store s.db ingest -q "$CPU" &&
	cols s.db >"$TMP/before" &&
	test_eq "$(param_as_n s.db world_size)" "$(cat "$TMP/before")"
'
test_expect_success SQLITE3 'run.n_params changed: stats sees the new n, the store keeps it, once' '
	cd "$TMP/w" &&
	printf "run:\n  n_params: [global_batch_size]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db stats --json &&
	test_contains "amdahl stats: note: the strategy, n, nodes, rank and repeat of 29 runs re-derived from the stored params under amdahl.yaml'\''s run lists" "$ERR" &&
	test_eq "$(param_as_n s.db global_batch_size)" "$(cols s.db)" &&
	test_eq "256" "$(printf "%s\n" "$OUT" | json_get - "\" \".join(sorted(set(str(p[\"n\"]) for s in d[\"sweeps\"] for c in s[\"strategies\"] for p in c[\"points\"])))")" &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	test_eq "" "$ERR"
'
test_expect_success SQLITE3 'a command that reads no other setting (regions) applies the lists too' '
	cd "$TMP/w" &&
	printf "run:\n  n_params: [num_gpus]\n  strategy_params: [backend]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db regions "n=8" -n 1 &&
	test_contains "amdahl regions: note: the strategy, n, nodes, rank and repeat of 29 runs" "$ERR" &&
	test_eq "$(param_as_n s.db num_gpus)" "$(cols s.db)" &&
	test_eq "gloo" "$(sqlite3 s.db "SELECT group_concat(DISTINCT strategy) FROM run")"
'
test_expect_success SQLITE3 'back to the defaults: the ingest'\''s columns again' '
	cd "$TMP/w" && rm amdahl.yaml &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	test_contains "under the default run lists" "$ERR" &&
	test_eq "$(cat "$TMP/before")" "$(cols s.db)" &&
	test_eq "ddp,fsdp" "$(sqlite3 s.db "SELECT group_concat(DISTINCT strategy) FROM (SELECT strategy FROM run ORDER BY strategy)")"
'
test_expect_success SQLITE3,NOT_ROOT 'a store that cannot be written keeps its columns, with a warning' '
	cd "$TMP/w" && cp s.db ro.db && chmod a-w ro.db &&
	printf "run:\n  n_params: [global_batch_size]\n" >amdahl.yaml &&
	test_status 0 "$AMDAHL" --store ro.db runs &&
	test_contains "amdahl runs: warning: " "$ERR" &&
	test_contains "cannot write them" "$ERR" &&
	test_eq "$(cat "$TMP/before")" "$(cols ro.db)" &&
	rm -f amdahl.yaml
'
test_done
