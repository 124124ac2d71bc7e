# launcher_params.sh — a sweep's world size, nodes and strategy from the
# params real launchers and trackers log (tests/oracle/launcher_params.py
# rewrites copies of the CPU sweep's MLflow store and says what each
# run's columns must be, from the original params): torchrun's nnodes ×
# nproc_per_node, a SLURM env dump (SLURM_NNODES × SLURM_NTASKS_PER_NODE),
# an env dump's WORLD_SIZE (matched in any case; world_size as spelled
# wins), Lightning's num_nodes × devices (an int or a list of indices)
# and a strategy object's repr (its class name), accelerate's
# num_processes, num_machines and distributed_type, and a per-node name
# given in amdahl.yaml (run.per_node_params, at ingest or after it).
# `runs --json` shows the oracle's columns and `scaling --json` equals
# the original layout's (strategy names mapped back); `runs` notes how
# many runs got n from nodes × workers per node or a name in another
# case. devices "auto" or -1 gives no world size (n from the traces, as
# without params); distributed_type NO no strategy.
test_description='world size, nodes and strategy from torchrun, SLURM, env dumps, Lightning and accelerate params'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
COLS='"\n".join("%s %s %s %s" % (r["id"], "-" if r["n"] is None else r["n"], "-" if r["nodes"] is None else r["nodes"], "-" if r["strategy"] is None else r["strategy"]) for r in sorted(d["runs"], key=lambda r: r["id"]))'
# scaling --json of store $1 with strategy names mapped by $2 ("A=B,…"),
# one line a value, lists of objects in a fixed order (strategies sort
# by name, and mapped names sort otherwise)
scaling_as() {
	"$AMDAHL" --store "$1" scaling --json >"$TMP/sc.json" &&
	"$PY" - "$TMP/sc.json" "$2" <<-'PYEOF'
	import json, sys
	names = dict(p.split("=") for p in sys.argv[2].split(",") if p)
	def walk(x):
	    if isinstance(x, dict):
	        return {k: names.get(v, v) if k == "strategy" else walk(v) for k, v in x.items()}
	    if isinstance(x, list):
	        return sorted((walk(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
	    return x
	print(json.dumps(walk(json.load(open(sys.argv[1]))), sort_keys=True, indent=0))
	PYEOF
}
# check STYLE MAP [CONFIG] — ingest the STYLE copy (in a folder with
# amdahl.yaml CONFIG when given): runs --json has the oracle's columns,
# scaling --json the original's with MAP applied
check() {
	mkdir -p "$TMP/$1" && cd "$TMP/$1" &&
	if [ -n "${3:-}" ]; then printf "%b" "$3" >amdahl.yaml; fi &&
	"$PY" "$AMDAHL_ROOT/tests/oracle/launcher_params.py" "$CPU" "$TMP/$1/mlruns" "$1" >want &&
	test_status 0 "$AMDAHL" --store s.db ingest -q mlruns &&
	"$AMDAHL" --store s.db runs --json >runs.json &&
	test_eq "$(cat want)" "$(json_get runs.json "$COLS")" &&
	scaling_as "$TMP/canon.db" "" >canon.scaling && scaling_as s.db "$2" >got.scaling &&
	test_true "scaling --json as the original layout'\''s: $(diff canon.scaling got.scaling | head -8)" \
		cmp -s canon.scaling got.scaling
}

test_expect_success PYTHON 'setup: the CPU sweep as logged' '
	test_status 0 "$AMDAHL" --store "$TMP/canon.db" ingest -q "$CPU" &&
	test_contains "\"strategy\":" "$(scaling_as "$TMP/canon.db" "")"
'
test_expect_success PYTHON 'torchrun: n is nnodes × nproc_per_node, and runs says so' '
	check torchrun "" &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	test_contains "note: n of $(grep -c . want) runs from nnodes × nproc_per_node (nodes × workers per node)" "$OUT"
'
test_expect_success PYTHON 'SLURM env dump in upper case: n is SLURM_NNODES × SLURM_NTASKS_PER_NODE' '
	check slurm ""
'
test_expect_success PYTHON 'env dump: WORLD_SIZE in upper case is n; world_size as spelled wins over it' '
	check env "" &&
	test_status 0 "$AMDAHL" --store s.db runs &&
	test_contains "note: n of $(($(grep -c . want) - 1)) runs from WORLD_SIZE (world_size in another case)" "$OUT" &&
	test_true "the first run logs both, unequal" test -f "$(ls -d "$TMP"/env/mlruns/*/*/params | sort | head -1)/WORLD_SIZE"
'
test_expect_success PYTHON 'Lightning: n is num_nodes × devices (int or list); a DDPStrategy repr is its class name' '
	check lightning "DDPStrategy=ddp"
'
test_expect_success PYTHON 'accelerate: num_processes, num_machines as nodes, distributed_type as strategy' '
	check accelerate "MULTI_GPU=ddp,FSDP=fsdp" &&
	mkdir -p "$TMP/no" && cd "$TMP/no" && cp -r "$TMP/accelerate/mlruns" . &&
	for f in mlruns/*/*/params/distributed_type; do printf NO >"$f"; done &&
	test_status 0 "$AMDAHL" --store s.db ingest -q mlruns &&
	test_eq "null" "$("$AMDAHL" --store s.db runs --json | json_get - "jdump(sorted(set(r[\"strategy\"] for r in d[\"runs\"])))" | tr -d "[]")"
'
test_expect_success PYTHON 'amdahl.yaml run.per_node_params names the per-node count (in any case), at ingest or later' '
	check per_node "" "run:\n  per_node_params: [ranks_per_host]\n" &&
	test_not_contains "per_node_params" "$ERR" &&
	mkdir late && cd late &&
	test_status 0 "$AMDAHL" --store s.db ingest -q ../mlruns &&
	test_true "without the list, untraced runs have no n" test "$(cat ../want)" != "$("$AMDAHL" --store s.db runs --json | json_get - "$COLS")" &&
	test_status 0 "$AMDAHL" --store s.db --config ../amdahl.yaml runs --json &&
	test_eq "$(cat ../want)" "$(printf "%s" "$OUT" | json_get - "$COLS")" &&
	test_contains "re-derived from the stored params" "$ERR"
'
test_expect_success PYTHON 'devices "auto" or -1 gives no world size: n is the traces'\'' or none' '
	mkdir -p "$TMP/auto" && cd "$TMP/auto" &&
	"$PY" "$AMDAHL_ROOT/tests/oracle/launcher_params.py" "$CPU" "$TMP/auto/mlruns" auto >want &&
	test_status 0 "$AMDAHL" --store s.db ingest -q mlruns &&
	test_eq "$(cat want)" "$("$AMDAHL" --store s.db runs --json | json_get - "$COLS")" &&
	test_contains " - " "$(cat want)"
'
test_done
