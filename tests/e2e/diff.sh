#!/bin/bash
# diff.sh — `amdahl diff A B` on the bundled CPU sweep: DDP against FSDP
# at n = 8 (per-region medians against an independent reading of the
# raw traces, tests/oracle/region_model_oracle.py; FSDP's own regions
# new), A/A (every ratio 1), JSON shape and bad usage.
test_description='amdahl diff: regions of two configurations side by side'
. "$(dirname "$0")/../test-lib.sh"
DB="$TMP/a.db"
CPU="$DATA/cpu-strong-scaling/mlruns"
J="$TMP/diff.json"

test_expect_success 'setup: ingest the CPU sweep; diff DDP and FSDP at n = 8 (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:ddp:8 cpu-strong-scaling:fsdp:8 --json &&
	cp "$TMP/out" "$J"
'
test_expect_success NUMPY,SCIPY 'per region, both medians equal the oracle'"'"'s from the raw traces (1e-9)' '
	"$PY" - "$CPU" "$J" >"$TMP/check" <<-\PYEOF &&
	import json, sys
	import numpy as np
	sys.path.insert(0, "'"$AMDAHL_ROOT"'/tests/oracle")
	import region_model_oracle as R
	obs = R.observations(sys.argv[1])
	d = json.load(open(sys.argv[2]))
	bad = 0
	for r in d["regions"]:
	    for side, strat in (("a_s", "ddp"), ("b_s", "fsdp")):
	        v = [y for n, y in obs[strat].get((r["kind"], r["name"]), []) if n == 8]
	        want = float(np.median(v)) if v else 0.0
	        if abs(r[side] - want) > 1e-9 * abs(want) + 1e-15:
	            bad += 1
	            print("differs:", r["name"], side, r[side], want)
	print("bad", bad, "of", len(d["regions"]))
	PYEOF
	test_contains "bad 0 of" "$(cat "$TMP/check")"
'
test_expect_success PYTHON 'FSDP'"'"'s own regions are new; gloo:all_reduce is on both sides with a ratio and an interval' '
	test_eq new "$(json_get "$J" "[r[\"status\"] for r in d[\"regions\"] if r[\"name\"] == \"FSDP::all_gather (6)\"][0]")" &&
	test_eq new "$(json_get "$J" "[r[\"status\"] for r in d[\"regions\"] if r[\"name\"] == \"gloo:all_gather\"][0]")" &&
	test_eq "both True" "$(json_get "$J" "[\"%s %s\" % (r[\"status\"], r[\"ci\"][\"lo\"] <= r[\"ratio\"] <= r[\"ci\"][\"hi\"]) for r in d[\"regions\"] if r[\"name\"] == \"gloo:all_reduce\"][0]")" &&
	test_near "$(json_get "$J" "[r[\"b_s\"] / r[\"a_s\"] for r in d[\"regions\"] if r[\"name\"] == \"gloo:all_reduce\"][0]")" \
		"$(json_get "$J" "[r[\"ratio\"] for r in d[\"regions\"] if r[\"name\"] == \"gloo:all_reduce\"][0]")" 1e-12
'
test_expect_success PYTHON 'one run per side: no Mann-Whitney p (it needs repeats)' '
	test_eq 0 "$(json_get "$J" "sum(1 for r in d[\"regions\"] if r[\"p\"] is not None)")"
'
test_expect_success PYTHON 'A/A: every ratio is 1, nothing new or vanished' '
	test_status 0 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:fsdp cpu-strong-scaling:fsdp:8 --json &&
	test_eq "0 0" "$(printf "%s" "$OUT" | json_get - "\"%d %d\" % (sum(1 for r in d[\"regions\"] if r[\"status\"] != \"both\"), sum(1 for r in d[\"regions\"] if r[\"ratio\"] is not None and r[\"ratio\"] != 1))")"
'
test_expect_success 'the table names both sides and orders rows by the size of the change' '
	test_status 0 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:ddp:8 cpu-strong-scaling:fsdp:8 -n 2 &&
	test_contains "A = cpu-strong-scaling:ddp n=8 (runs: 1, traces: 8), B = cpu-strong-scaling:fsdp n=8" "$OUT" &&
	test_contains "gloo:all_gather" "$(printf "%s\n" "$OUT" | sed -n 4p)"
'
test_expect_success 'bad usage: exit 2 and one line' '
	test_status 2 "$AMDAHL" --store "$DB" diff cpu-strong-scaling &&
	test_contains "two sides wanted" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:ddp:x cpu-strong-scaling &&
	test_contains "not SWEEP[:STRATEGY[:N]]: cpu-strong-scaling:ddp:x" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:ddp:3 cpu-strong-scaling &&
	test_contains "has no profiler traces at n = 3" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
'
test_expect_success 'a misspelt sweep or strategy names the closest, not "no profiler traces"' '
	test_status 2 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:dpp cpu-strong-scaling:fsdp &&
	test_contains "sweep cpu-strong-scaling has no strategy '\''dpp'\'' with profiler traces; closest: '\''ddp'\''" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$DB" diff cpu-strong-scaling:ddp cpu-strong-scalng:fsdp &&
	test_contains "no sweep named '\''cpu-strong-scalng'\'' (sweeps: cpu-strong-scaling); closest: '\''cpu-strong-scaling'\''" "$ERR" &&
	test_not_contains "no profiler traces" "$ERR"
'
test_expect_success PYTHON 'sides may be selectors: strategy=ddp,n=8 against strategy=fsdp (its largest n) gives the same regions as the SWEEP:STRATEGY:N form' '
	test_status 0 "$AMDAHL" --store "$DB" diff "strategy=ddp,n=8" "sweep=cpu-strong-scaling,strategy=fsdp" --json &&
	printf "%s" "$OUT" >"$TMP/sel.json" &&
	test_eq "$(json_get "$J" "json.dumps(d[\"regions\"], sort_keys=True)")" \
		"$(json_get "$TMP/sel.json" "json.dumps(d[\"regions\"], sort_keys=True)")" &&
	test_eq "strategy=ddp,n=8 n=8" "$(json_get "$TMP/sel.json" "d[\"a\"]")" &&
	before=$(store_digest "$DB") &&
	test_status 2 "$AMDAHL" --store "$DB" diff "strategy=ddp" "param.nosuch=1" &&
	test_contains "param.nosuch" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_eq "$before" "$(store_digest "$DB")"
'
test_expect_success NUMPY,SCIPY 'Mann-Whitney end to end: repeats 1 and 2 of DDP n = 2 and 4 traced (repeat 0'"'"'s traces with every time scaled, tests/lib/traced_repeats.py): 3 runs a side, each region'"'"'s p equals scipy'"'"'s exact test on the per-run means from the files (1e-9)' '
	mkdir -p "$TMP/mwu" && cp -r "$CPU" "$TMP/mwu/" &&
	"$PY" "$AMDAHL_ROOT/tests/lib/traced_repeats.py" "$TMP/mwu/mlruns" ddp 2 1=1.07 2=0.96 &&
	"$PY" "$AMDAHL_ROOT/tests/lib/traced_repeats.py" "$TMP/mwu/mlruns" ddp 4 1=1.1 2=0.93 &&
	test_status 0 "$AMDAHL" --store "$TMP/mwu.db" ingest -q "$TMP/mwu/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/mwu.db" diff cpu-strong-scaling:ddp:2 cpu-strong-scaling:ddp:4 --json &&
	printf "%s" "$OUT" >"$TMP/mwu.json" &&
	test_eq "3 3 6 12" "$(json_get "$TMP/mwu.json" "\"%d %d %d %d\" % (d[\"runs_a\"], d[\"runs_b\"], d[\"traces_a\"], d[\"traces_b\"])")" &&
	"$PY" - "$TMP/mwu/mlruns" "$TMP/mwu.json" >"$TMP/check" <<-\PYEOF &&
	import json, os, sys
	import numpy as np
	from scipy.stats import mannwhitneyu
	sys.path.insert(0, "'"$AMDAHL_ROOT"'/tests/oracle")
	import region_model_oracle as R
	runs = {2: [], 4: []}
	for exp in sorted(os.listdir(sys.argv[1])):
	    for r in sorted(os.listdir(os.path.join(sys.argv[1], exp))):
	        d = os.path.join(sys.argv[1], exp, r)
	        t = os.path.join(d, "artifacts", "traces")
	        if R.read_param(d, "strategy") == "ddp" and os.path.isdir(t) and R.status_ok(d):
	            n = int(R.read_param(d, "world_size"))
	            if n in runs:
	                runs[n].append([R.trace_regions(os.path.join(t, f)) for f in sorted(os.listdir(t))])
	doc = json.load(open(sys.argv[2]))
	bad = checked = 0
	for r in doc["regions"]:
	    if r["status"] != "both":
	        continue
	    k = (r["kind"], r["name"])
	    a, b = ([float(np.mean([tr.get(k, 0.0) for tr in run])) for run in runs[n]] for n in (2, 4))
	    if len(set(a + b)) < len(a + b):
	        continue  # ties: the exact distribution does not apply
	    want = mannwhitneyu(a, b, alternative="two-sided", method="exact").pvalue
	    checked += 1
	    if abs(r["p"] - want) > 1e-9:
	        bad += 1
	        print("differs:", r["name"], r["p"], want)
	print("runs", len(runs[2]), len(runs[4]), "bad", bad, "checked", checked)
	PYEOF
	test_contains "runs 3 3 bad 0 checked" "$(cat "$TMP/check")" &&
	test_true "most regions checked: $(cat "$TMP/check")" test "$(sed -n "s/.*checked //p" "$TMP/check" | tail -1)" -ge 40
'
test_done
