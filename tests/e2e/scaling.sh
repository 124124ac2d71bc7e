#!/bin/bash
# scaling.sh — `amdahl scaling` on the bundled CPU sweep (traces of every
# rank of repeat 0): the issue's checks (gloo collectives first for both
# strategies at n = 8 and not shrinking, convolutions shrinking, FSDP's
# extrapolated epoch time longer at n = 16 than at n = 8), the model
# search against an independent numpy oracle (tests/oracle/
# region_model_oracle.py, from the raw trace files), the JSON shape,
# determinism and bad usage.
test_description='amdahl scaling: region models, ranking, extrapolation, oracle'
. "$(dirname "$0")/../test-lib.sh"
DB="$TMP/a.db"
CPU="$DATA/cpu-strong-scaling/mlruns"
J="$TMP/scaling.json"

test_expect_success 'setup: ingest the CPU sweep and model it (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$DB" scaling --json &&
	cp "$TMP/out" "$J"
'
test_expect_success PYTHON 'both strategies are modelled at n = 1, 2, 4, 8' '
	test_eq "ddp fsdp" "$(json_get "$J" "\" \".join(s[\"strategy\"] for s in d[\"strategies\"])")" &&
	test_eq "[1, 2, 4, 8] [1, 2, 4, 8]" "$(json_get "$J" "\" \".join(str(s[\"n\"]) for s in d[\"strategies\"])")"
'
test_expect_success PYTHON 'the top region of each strategy at n = 8 is a gloo collective, and it does not shrink' '
	for s in ddp fsdp; do
		top=$(json_get "$J" "[r for r in d[\"regions\"] if r[\"strategy\"] == \"$s\"][0]")
		test_contains "gloo:" "$top" && test_contains "collective" "$top" || return 1
	done &&
	test_eq "" "$(json_get "$J" "\" \".join(r[\"name\"] for r in d[\"regions\"] if r[\"name\"].startswith(\"gloo:\") and r[\"growth\"] == \"shrinks\")")"
'
test_expect_success PYTHON 'the convolution operators (1% of the step or more at n = 8) shrink with n' '
	conv=$(json_get "$J" "\" \".join(r[\"strategy\"] + \":\" + r[\"growth\"] for r in d[\"regions\"] if \"convolution\" in r[\"name\"] and r[\"share_at_max_n\"] >= 0.01)") &&
	test_eq "ddp:shrinks ddp:shrinks fsdp:shrinks fsdp:shrinks" "$(echo $conv | tr " " "\n" | sort | tr "\n" " " | sed "s/ $//")"
'
test_expect_success PYTHON 'a prediction interval says what it covers in simulation: 95% at the measured n, below 93% where the simulation found less' '
	test_eq "0.95" "$(json_get "$J" "\" \".join(sorted(set(str(p[\"ci\"][\"level\"]) for r in d[\"regions\"] for p in r[\"predictions\"] if p[\"n\"] <= 8)))")" &&
	test_eq "0.68 0.72 0.75 0.79 0.81 0.95" "$(json_get "$J" "\" \".join(sorted(set(str(p[\"ci\"][\"level\"]) for r in d[\"regions\"] for p in r[\"predictions\"] if p[\"n\"] > 8)))")" &&
	test_status 0 "$AMDAHL" --store "$DB" scaling
'
test_expect_success PYTHON 'one run per n: what to measure next predicts no narrowing (in simulation 0.3-0.5x the realised one), says why, and the JSON carries null with the reason' '
	test_status 0 "$AMDAHL" --store "$DB" scaling &&
	test_not_contains "narrows to" "$(cat "$TMP/out")" &&
	test_eq 2 "$(grep -c "^What to measure next: with one run per n the narrowing new runs bring cannot be predicted: they change the chosen model (in simulation the prediction was 0.3-0.5x the narrowing realised in 5 of 6 regimes); measure more runs per n first\\." "$TMP/out")" &&
	test_eq "16:1:None:True 32:1:None:True 16:1:None:True 32:1:None:True" "$(json_get "$J" "\" \".join(\"%g:%d:%s:%s\" % (a[\"n\"], a[\"repeats\"], a[\"narrowing\"], \"cannot be predicted\" in a[\"narrowing_why\"]) for s in d[\"strategies\"] for a in s[\"advice\"])")"
'
test_expect_success PYTHON 'FSDP: the extrapolated epoch time at n = 16 is longer than at n = 8' '
	e8=$(json_get "$J" "[w for s in d[\"strategies\"] if s[\"strategy\"] == \"fsdp\" for w in s[\"whole\"] if w[\"n\"] == 8][0][\"epoch_s\"][\"value\"]") &&
	e16=$(json_get "$J" "[w for s in d[\"strategies\"] if s[\"strategy\"] == \"fsdp\" for w in s[\"whole\"] if w[\"n\"] == 16][0][\"epoch_s\"][\"value\"]") &&
	test_true "epoch(16) $e16 > epoch(8) $e8" awk -v a="$e16" -v b="$e8" "BEGIN{exit !(a > b)}"
'
test_expect_success NUMPY 'whole: measured rows are the epoch times and efficiencies stats prints (efficiency exactly 1 at the base n), other rows are predictions' '
	test_status 0 "$AMDAHL" --store "$DB" stats --json &&
	cp "$TMP/out" "$TMP/stats.json" &&
	test_status 0 "$PY" "$AMDAHL_ROOT/tests/lib/scaling_truth.py" "$J" "$TMP/stats.json" &&
	test_eq "ok 12 rows 210 models" "$OUT" &&
	test_eq "1 1" "$(json_get "$J" "\" \".join(\"%r\" % w[\"efficiency\"][\"value\"] for s in d[\"strategies\"] for w in s[\"whole\"] if w[\"n\"] == 1)")"
'
test_expect_success NUMPY 'no region model reaches 0 up to the target n (default 32, and --target 128)' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --json --target 128 &&
	cp "$TMP/out" "$TMP/t128.json" &&
	test_status 0 "$PY" "$AMDAHL_ROOT/tests/lib/scaling_truth.py" "$TMP/t128.json" "$TMP/stats.json" &&
	test_eq "ok 14 rows 210 models" "$OUT"
'
test_expect_success 'the human table: measured rows print the stats numbers (ddp efficiency 100, 99.8, 101, 64.7), predicted rows say so' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --strategy ddp &&
	printf "%s\n" "$OUT" | sed -E "s/^ +//; s/  +/|/g" >"$TMP/whole.txt" &&
	test_eq "100 99.8 101 64.7" "$(awk -F"|" "\$2 == \"measured\" {sub(/ .*/, \"\", \$5); printf \"%s%s\", s, \$5; s = \" \"}" "$TMP/whole.txt")" &&
	test_eq "16 32" "$(awk -F"|" "\$2 ~ /^predicted/ {printf \"%s%s\", s, \$1; s = \" \"}" "$TMP/whole.txt")"
'
test_expect_success NUMPY,SCIPY 'every region: the same model and coefficients (1e-9) as the numpy oracle from the raw traces' '
	test_status 0 "$PY" "$AMDAHL_ROOT/tests/oracle/region_model_oracle.py" "$CPU" --check "$J" &&
	test_eq "checked $(json_get "$J" "len(d[\"regions\"])") regions" "$OUT"
'
test_expect_success PYTHON 'shares at n = 8 are of the regions sum: they add up to 1 per strategy' '
	for s in ddp fsdp; do
		test_near 1 "$(json_get "$J" "sum(r[\"share_at_max_n\"] for r in d[\"regions\"] if r[\"strategy\"] == \"$s\")")" 1e-9 || return 1
	done
'
test_expect_success PYTHON 'JSON shape: a constant model has no terms; every model names its criterion; predictions carry intervals' '
	test_eq 0 "$(json_get "$J" "sum(1 for r in d[\"regions\"] if r[\"growth\"] == \"constant\" and r[\"terms\"])")" &&
	test_eq "leave-one-n-out SMAPE" "$(json_get "$J" "sorted({r[\"criterion\"] for r in d[\"regions\"]})[0]")" &&
	test_eq 0 "$(json_get "$J" "sum(1 for r in d[\"regions\"] for p in r[\"predictions\"] if p[\"ci\"] is None)")" &&
	test_eq "1 2 4 8 16 32" "$(json_get "$J" "\" \".join(\"%g\" % p[\"n\"] for p in d[\"regions\"][0][\"predictions\"])")"
'
test_expect_success PYTHON 'share: each of 2x, 4x the largest n and the target once, increasing (the default target 32 is 4x 8; --target 10 comes first)' '
	test_eq "16 32" "$(json_get "$J" "sorted({\" \".join(\"%g\" % p[\"n\"] for p in r[\"share\"]) for r in d[\"regions\"]})[0]")" &&
	test_eq 1 "$(json_get "$J" "len({tuple(p[\"n\"] for p in r[\"share\"]) for r in d[\"regions\"]})")" &&
	test_status 0 "$AMDAHL" --store "$DB" scaling --json --target 10 &&
	test_eq "10 16 32" "$(printf "%s" "$OUT" | json_get - "\" \".join(\"%g\" % p[\"n\"] for p in d[\"regions\"][0][\"share\"])")" &&
	test_status 0 "$AMDAHL" --store "$DB" scaling --strategy ddp --target 10 &&
	test_contains "At n = 10, " "$OUT"
'
test_expect_success 'the same seed gives the same models and intervals' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --json &&
	test_eq "$(sha256sum <"$J")" "$(sha256sum <"$TMP/out")"
'
test_expect_success SQLITE3 'regions of sources without a step count (cProfile, py-spy) linked to a run are left out: the models stay the same' '
	store_copy "$DB" "$TMP/nostep.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/nostep.db" ingest -q --run 352060eb92854d39b18812809e22c265 "$AMDAHL_ROOT/testdata/profiles/work.prof" &&
	test_status 0 "$AMDAHL" --store "$TMP/nostep.db" ingest -q --run 352060eb92854d39b18812809e22c265 "$AMDAHL_ROOT/testdata/pyspy/train-raw.txt" &&
	test_eq "cprofile py-spy" "$(q "$TMP/nostep.db" "SELECT group_concat(s, \" \") FROM (SELECT DISTINCT p.s FROM region g JOIN dict p ON p.id = g.profiler_id JOIN run r ON r.id = g.run_id WHERE r.ext_id = \"352060eb92854d39b18812809e22c265\" AND p.s <> \"torch\" ORDER BY 1)")" &&
	test_status 0 "$AMDAHL" --store "$TMP/nostep.db" scaling --json &&
	test_eq "$(sha256sum <"$J")" "$(sha256sum <"$TMP/out")"
'
test_expect_success PYTHON '--sweep takes a selector: strategy=fsdp gives the same FSDP models; n<=4 models n = 1, 2, 4 only' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --sweep "sweep=cpu-strong-scaling,strategy=fsdp" --json &&
	printf "%s" "$OUT" >"$TMP/sel.json" &&
	test_eq "fsdp" "$(json_get "$TMP/sel.json" "\" \".join(s[\"strategy\"] for s in d[\"strategies\"])")" &&
	test_eq "$(json_get "$J" "json.dumps([r for r in d[\"regions\"] if r[\"strategy\"] == \"fsdp\"], sort_keys=True)")" \
		"$(json_get "$TMP/sel.json" "json.dumps(d[\"regions\"], sort_keys=True)")" &&
	test_status 0 "$AMDAHL" --store "$DB" scaling --sweep "n<=4" --json &&
	test_eq "[1, 2, 4] [1, 2, 4]" "$(printf "%s" "$OUT" | json_get - "\" \".join(str(s[\"n\"]) for s in d[\"strategies\"])")"
'
test_expect_success 'a selector that picks no run: exit 2, one line naming the term' '
	test_status 2 "$AMDAHL" --store "$DB" scaling --sweep "strategy=nosuch" &&
	test_contains "strategy=nosuch" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
'
test_expect_success PYTHON 'weak scaling: --axis global_batch_size on the H100 batch sweep models each precision over the batch sizes 8..64, per-rank time, stated, no efficiency' '
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" ingest -q "$DATA/gpu-batch-sweep/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" scaling --axis global_batch_size --json &&
	printf "%s" "$OUT" >"$TMP/weak.json" &&
	test_eq "bf16:[8, 16, 32, 64] fp32:[8, 16, 32, 64]" "$(json_get "$TMP/weak.json" "\" \".join(s[\"strategy\"] + \":\" + str(s[\"n\"]) for s in d[\"strategies\"])")" &&
	test_eq "global_batch_size" "$(json_get "$TMP/weak.json" "d[\"axis\"]")" &&
	test_contains "weak: per-rank time" "$(json_get "$TMP/weak.json" "d[\"scaling\"]")" &&
	test_eq 0 "$(json_get "$TMP/weak.json" "sum(1 for s in d[\"strategies\"] for w in s[\"whole\"] if w[\"efficiency\"][\"value\"] is not None)")" &&
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" scaling --axis global_batch_size -n 2 &&
	test_contains "weak scaling: per-rank time per step against global_batch_size" "$OUT"
'
test_expect_success NUMPY,SCIPY 'weak scaling: the same model and coefficients (1e-9) as the numpy oracle with the batch size as the axis' '
	test_status 0 "$PY" "$AMDAHL_ROOT/tests/oracle/region_model_oracle.py" "$DATA/gpu-batch-sweep/mlruns" --axis global_batch_size --check "$TMP/weak.json" &&
	test_eq "checked $(json_get "$TMP/weak.json" "len(d[\"regions\"])") regions" "$OUT"
'
test_expect_success 'weak scaling: an axis param the runs lack is one line naming it, exit 2, the store unchanged' '
	before=$(store_digest "$TMP/gpu.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/gpu.db" scaling --axis nosuch &&
	test_contains "param '\''nosuch'\'' is in no run of sweep" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_eq "$before" "$(store_digest "$TMP/gpu.db")"
'
test_expect_success 'the table: ranked regions, the whole, the findings in sentences' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --strategy fsdp --target 16 -n 3 &&
	test_contains "strategy fsdp: n = 1, 2, 4, 8; target n = 16" "$OUT" &&
	test_contains "At n = 16, gloo:" "$OUT" &&
	test_contains "of the step, " "$OUT" &&
	test_not_contains "strategy ddp" "$OUT"
'
test_expect_success PYTHON '--kind keeps one kind of region; --next ranks the candidates given' '
	test_status 0 "$AMDAHL" --store "$DB" scaling --kind collective --next 12,16 --json &&
	test_eq "collective" "$(printf "%s" "$OUT" | json_get - "\" \".join(sorted({r[\"kind\"] for r in d[\"regions\"]}))")" &&
	test_eq "12 16" "$(printf "%s" "$OUT" | json_get - "\" \".join(sorted(\"%g\" % a[\"n\"] for a in d[\"strategies\"][0][\"advice\"]))")"
'
test_expect_success 'bad usage: exit 2 and one line, the store unchanged' '
	before=$(store_digest "$DB") &&
	test_status 2 "$AMDAHL" --store "$DB" scaling --target x &&
	test_contains "amdahl scaling: --target" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$DB" scaling --strategy nosuch &&
	test_contains "has no profiler traces of counted runs of strategy nosuch" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_status 2 "$AMDAHL" --store "$DB" scaling --sweep nosuch &&
	test_eq "$before" "$(store_digest "$DB")"
'
test_expect_success PYTHON 'report build: a "What limits scaling" chart per strategy whose caption gives the top region and its predicted share as scaling --json does' '
	test_status 0 "$AMDAHL" --store "$DB" report build -o "$TMP/rep" &&
	for s in ddp fsdp; do
		test_path_exists "$TMP/rep/charts/limits_$s.png" || return 1
		cap=$(json_get "$TMP/rep/report.json" "[c[\"caption\"] for c in d[\"charts\"] if c[\"name\"] == \"limits_$s\"][0]")
		want=$(json_get "$J" "[\"%s (%s, %s) is predicted to take %.0f%% [%.0f, %.0f]\" % (r[\"name\"], r[\"kind\"], r[\"growth\"], 100*t[\"value\"], 100*t[\"ci\"][\"lo\"], 100*t[\"ci\"][\"hi\"]) for r in d[\"regions\"] for t in r[\"share\"] if t[\"n\"] == 32 if r[\"strategy\"] == \"$s\"][0]")
		test_contains "$want" "$cap" || return 1
	done
'
test_expect_success PDFTOTEXT 'the PDF has the page for both strategies' '
	text=$(pdftotext "$TMP/rep/report.pdf" - | tr -s " \n" " ") &&
	test_contains "What limits scaling: ddp" "$text" &&
	test_contains "What limits scaling: fsdp" "$text"
'
test_done
