# run_typo.sh — typos are not silent (issue 20 item 12): `--run NAME`
# naming no run is refused with the closest names and the hint that
# `--sweep S --run NAME` creates it; `--sweep S --run NAME` does; an
# MLflow status amdahl does not know counts as not finished. A RUN of
# trace show and regions, a misspelt sweep and a misspelt --option name
# the closest right name (round 26), and only one near enough: '--zzz'
# names no option; a long list of sweeps is left out for the closest.
test_description='--run typos refused with the closest names; unknown statuses not finished; RUN, SWEEP and --option typos'

. "$(dirname "$0")/../test-lib.sh"

S=$TMP/s.db
TR=$TMP/t.pt.trace.json.gz
M=$TMP/mlruns
before="" odd=""
# runs --json: run bf16-b9 as "status in_statistics traces"
RUN_OF='" ".join("%s %s %d" % (r["status"], r["in_statistics"], r["traces"]) for r in d["runs"] if r["name"] == "bf16-b9")'

test_expect_success 'setup: the GPU sweep ingested, a trace from the CPU sweep copied' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$DATA/gpu-batch-sweep/mlruns" &&
	cp "$(find "$DATA/cpu-strong-scaling/mlruns" -name "*.pt.trace.json.gz" | sort | head -1)" "$TR"
'
test_expect_success '--run naming no run: refused with the closest names and the hint, store unchanged' '
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" ingest --run bf16-b9 "$TR" &&
	test_contains "--run bf16-b9: no run of that name or id in $(store_name "$S"); closest: '\''bf16-b8'\''" "$ERR" &&
	test_contains "'\''--sweep S --run bf16-b9'\'' creates it in sweep S" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success '--run into a store that does not exist: refused, no store left behind' '
	test_status 2 "$AMDAHL" --store "$TMP/none.db" ingest --run bf16-b8 "$TR" &&
	test_contains "no run of that name or id" "$ERR" &&
	test_eq absent "$(store_digest "$TMP/none.db")"
'
test_expect_success '--run naming an existing run by name still links' '
	test_status 0 "$AMDAHL" --store "$TMP/ok.db" ingest "$DATA/gpu-batch-sweep/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/ok.db" ingest --run bf16-b8 "$TR" &&
	test_not_contains "linked to no run" "$OUT$ERR"
'
test_expect_success PYTHON '--sweep S --run NAME creates run NAME in sweep S, with the trace' '
	test_status 0 "$AMDAHL" --store "$S" ingest --sweep mine --run bf16-b9 "$TR" &&
	test_contains "1 added" "$OUT" &&
	"$AMDAHL" --store "$S" runs --sweep mine --json >"$TMP/r.json" &&
	test_eq "UNKNOWN True 1" "$(json_get "$TMP/r.json" "$RUN_OF")" # n from the trace: distributedInfo.world_size (issue 36); without it the run is out (issue 13 item 9)
'
test_expect_success 'ingest counts agree in number: 1 other file skipped' '
	test_status 0 "$AMDAHL" --store "$TMP/one.db" ingest "$DATA/gpu-batch-sweep/mlruns" &&
	test_contains "; 1 other file skipped" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$S" runs --sweep mine &&
	test_contains "sweep mine: 1 run, 1 in statistics" "$OUT"
'
test_expect_success 'trace show and regions: a misspelt RUN names the closest run' '
	test_status 2 "$AMDAHL" --store "$S" trace show bf16-b8x &&
	test_contains "amdahl trace: no run named or with id '\''bf16-b8x'\'' in " "$ERR" &&
	test_contains "; closest: '\''bf16-b8'\''" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$S" regions bf16-b8x &&
	test_contains "bf16-b8x: no run (id or name), sweep or ingested file of that name in the store; closest: '\''bf16-b8'\''" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$S" regions gpu-batch-swep &&
	test_contains "; closest: '\''gpu-batch-sweep'\''" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$S" trace show zzzzzzzz &&
	test_not_contains "closest" "$ERR"
'
test_expect_success 'a misspelt --option names the closest only when near: --zzz names none, --rnu --run' '
	test_status 2 "$AMDAHL" --store "$S" ingest --zzz "$TR" &&
	test_eq "amdahl ingest: unknown option '\''--zzz'\''" "$(printf "%s\n" "$ERR" | head -1)" &&
	test_status 2 "$AMDAHL" --store "$S" ingest --rnu bf16-b8 "$TR" &&
	test_contains "amdahl ingest: unknown option '\''--rnu'\''; closest: '\''--run'\''" "$ERR"
'
test_expect_success 'setup: six one-run sweeps, each from its own copy of the trace' '
	i=0 &&
	for w in alpha beta gamma delta epsilon zeta; do
		i=$((i + 1)) &&
		{ gzip -dc "$TR" && printf "%${i}s\n" ""; } >"$TMP/$w.pt.trace.json" &&
		"$AMDAHL" --store "$TMP/six.db" ingest -q --sweep "$w-run" --run "r-$w" "$TMP/$w.pt.trace.json" || return 1
	done &&
	test_eq 6 "$(q "$TMP/six.db" "SELECT count(*) FROM sweep")"
'
test_expect_success 'a misspelt sweep among many names the closest, not every sweep' '
	for c in stats runs explain keys; do
		if [ $c = keys ]; then set -- keys gama-run; else set -- $c --sweep gama-run; fi
		test_status 2 "$AMDAHL" --store "$TMP/six.db" "$@" &&
		test_contains "closest: '\''gamma-run'\''" "$ERR" &&
		test_contains "(6 sweeps)" "$ERR" &&
		test_not_contains "alpha-run" "$ERR" || return 1
	done &&
	test_status 2 "$AMDAHL" --store "$TMP/six.db" stats --sweep nothing-like-these &&
	test_contains "(sweeps: alpha-run, beta-run, delta-run, epsilon-run, gamma-run, zeta-run)" "$ERR"
'
test_expect_success 'a misspelt sweep among few: the closest, and the list' '
	test_status 2 "$AMDAHL" --store "$S" stats --sweep gpu-batch-swep &&
	test_contains "(sweeps: gpu-batch-sweep, mine); closest: '\''gpu-batch-sweep'\''" "$ERR"
'
test_expect_success 'setup: a copy of the GPU sweep with one run of status 7 (not an MLflow RunStatus)' '
	cp -r "$DATA/gpu-batch-sweep/mlruns" "$M" &&
	odd=$(grep -l "^status: 3$" "$M"/1/*/meta.yaml | head -1) &&
	sed -i "s/^status: 3$/status: 7/" "$odd" &&
	test_true "status rewritten" grep -q "^status: 7$" "$odd"
'
test_expect_success PYTHON 'an unknown status is OTHER and left out of statistics' '
	test_status 0 "$AMDAHL" --store "$TMP/m.db" ingest "$M" &&
	"$AMDAHL" --store "$TMP/m.db" runs --json >"$TMP/m.json" &&
	test_eq "OTHER False" "$(json_get "$TMP/m.json" "\" \".join(\"%s %s\" % (r[\"status\"], r[\"in_statistics\"]) for r in d[\"runs\"] if r[\"id\"] == \"$(basename "$(dirname "$odd")")\")")" &&
	test_eq "$(grep -l "^status: 3$" "$M"/1/*/meta.yaml | wc -l)" \
		"$(json_get "$TMP/m.json" "sum(r[\"in_statistics\"] for r in d[\"runs\"])")"
'
test_done
