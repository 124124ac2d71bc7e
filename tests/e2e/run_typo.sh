# run_typo.sh — typos are not silent (issue 20 item 12): `--run NAME`
# naming no run is refused with the closest names and the hint that
# `--sweep S --run NAME` creates it; `--sweep S --run NAME` does; an
# MLflow status amdahl does not know counts as not finished.
test_description='--run typos refused with the closest names; unknown statuses not finished'
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
