# gate.sh — `amdahl compare` and `amdahl gate` on the real sweeps in
# testdata/: A/A comparisons (must never say regression), DDP against FSDP
# on the CPU sweep and fp32 against bf16 on the H100 batch sweep (real
# differences, found in the right direction where the run counts allow,
# "insufficient data" with exit 3 where 3 vs 3 cannot reach alpha), a
# higher-is-better metric, every p-value against SciPy's mannwhitneyu, the
# JUnit file through xmllint, the Markdown table's shape, and exit codes.
test_description='compare and gate: verdicts, p-values, exit codes, JUnit and Markdown'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep/mlruns

# row_get FILE METRIC N EXPR — EXPR (Python) over r, the first row of
# METRIC at n = N in a compare/gate JSON document.
row_get() { json_get "$1" "(lambda r: $4)(row(\"$2\", n=$3))"; }
# scipy_check FILE — "N ok" when the N rows with a test have SciPy's U and p.
scipy_check() { "$PY" "$AMDAHL_ROOT/tests/oracle/mannwhitney_scipy.py" "$1"; }
# md_shape FILE — "ok" when every table line has as many cells as the
# header, a separator row follows it and there is at least one row.
md_shape() {
	awk -F'|' '/^\|/{n++; c=NF; if(n==1)h=c; else if(c!=h)bad=1; if(n==2 && $0 !~ /^\| ---/)bad=1} END{print (n>2 && !bad) ? "ok" : "bad"}' "$1"
}

test_expect_success 'setup: ingest the CPU sweep twice (second as "rerun") and the H100 sweep' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU" &&
	"$AMDAHL" --store "$TMP/rerun.db" ingest -q --sweep rerun "$CPU" &&
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$GPU"
'

# ---- usage and input errors: exit 2 ----
test_expect_success 'gate --help exits 0 and names the exit codes' '
	test_status 0 "$AMDAHL" gate --help
	test_contains "3 insufficient data" "$OUT"
'
test_expect_success 'compare --help exits 0' '
	test_status 0 "$AMDAHL" compare --help
'
test_expect_success 'gate without --candidate is a usage error' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling
'
test_expect_success 'an unknown sweep is an input error that names the sweep' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline nope --candidate cpu-strong-scaling
	test_contains "nope" "$ERR"
'
test_expect_success 'an unknown strategy is an input error that names the strategy' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:zero3
	test_contains "zero3" "$ERR"
'
test_expect_success 'a misspelt strategy names the closest (ddp, not dpp)' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:dpp --candidate cpu-strong-scaling:fsdp
	test_eq "amdahl gate: sweep '\''cpu-strong-scaling'\'' has no strategy '\''dpp'\''; closest: '\''ddp'\'', '\''fsdp'\''" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdb
	test_contains "has no strategy '\''fsdb'\''; closest: '\''fsdp'\''" "$ERR"
'
# A misspelt --only gated nothing and passed (exit 0): in CI a typo
# turned the gate off. It is an error naming the closest row metric.
test_expect_success '--only naming no row metric is an error naming the closest, not a pass' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --fallback ci --only epoch_tim
	test_eq "amdahl gate: --only: no row has the metric '\''epoch_tim'\''; closest: '\''epoch_time_s'\'' (rows: epoch_time_s, throughput, speedup, efficiency)" "$ERR"
	test_eq "" "$OUT"
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --only throughput_samples_per_s
	test_contains "(rows: epoch_time_s, throughput, speedup, efficiency)" "$ERR"
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --fallback ci --only speedup
'
test_expect_success 'SWEEP: with an empty strategy is a usage error' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling: --candidate cpu-strong-scaling
'
test_expect_success 'a missing baseline store is an input error' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline-store "$TMP/none.db" --baseline rerun --candidate cpu-strong-scaling
'
test_expect_success 'a bad direction in amdahl.yaml is an input error that names the key' '
	printf "gate:\n  metrics:\n    epoch_time_s:\n      direction: sideways\n" >"$TMP/bad.yaml" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/bad.yaml" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
	test_contains "gate.metrics.epoch_time_s.direction" "$ERR"
'
test_expect_success 'an extra metric without a direction is an input error' '
	printf "gate:\n  metrics:\n    train_loss: {threshold: 0.1}\n" >"$TMP/nodir.yaml" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/nodir.yaml" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
'
test_expect_success '--junit belongs to gate, not compare' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling --candidate cpu-strong-scaling --junit "$TMP/x.xml"
'

# ---- A/A 1: the CPU sweep against a second ingest of itself (3 vs 3) ----
test_expect_success 'setup: A/A on the same runs exits 3 (3 vs 3 cannot reach 0.05), not 1' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline-store "$TMP/rerun.db" --baseline rerun --candidate cpu-strong-scaling --json
	cp "$TMP/out" "$TMP/aa1.json"
'
test_expect_success PYTHON 'A/A on the same runs: no regression' '
	test_eq "[]" "$(json_get "$TMP/aa1.json" "[r for r in rows() if r[\"verdict\"]==\"regression\"]")"
'
test_expect_success PYTHON 'A/A on the same runs: every ratio is 1 and every p is 1' '
	test_eq "True" "$(json_get "$TMP/aa1.json" "all(r[\"ratio\"]==1 and r[\"p\"]==1 for r in rows())")"
'
test_expect_success PYTHON 'A/A on the same runs: every gated row is insufficient' '
	test_eq "True" "$(json_get "$TMP/aa1.json" "all(r[\"verdict\"]==\"insufficient_data\" for r in rows() if r[\"gated\"])")"
'
test_expect_success PYTHON 'A/A: both strategies and four n per strategy matched' '
	test_eq "ddp:1,2,4,8 fsdp:1,2,4,8" "$(json_get "$TMP/aa1.json" "\" \".join(s+\":\"+\",\".join(\"%g\"%n for n in sorted({r[\"n\"] for r in rows() if r[\"strategy\"]==s and r[\"metric\"]==\"epoch_time_s\"})) for s in (\"ddp\",\"fsdp\"))")"
'
test_expect_success SCIPY 'A/A same runs: p-values equal SciPy'\''s (2 strategies x 4 time, 4 throughput, 3 speedup, 3 efficiency)' '
	test_eq "28 ok" "$(scipy_check "$TMP/aa1.json")"
'

# ---- A/A 2: the H100 sweep's repeats split in two halves (repeats 0+1 vs 2) ----
test_expect_success 'setup: split the H100 runs by repeat (0+1 vs 2) and ingest the halves' '
	"$AMDAHL_ROOT/tests/lib/split_halves.sh" "$GPU" "$TMP" &&
	"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-a "$TMP/a/mlruns" &&
	"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-b "$TMP/b/mlruns"
'
test_expect_success 'setup: A/A on split repeats (8 vs 4 per strategy): gate passes, exit 0' '
	test_status 0 "$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --json
	cp "$TMP/out" "$TMP/aa2.json"
'
test_expect_success PYTHON 'A/A split: 8 vs 4 runs in each gated row' '
	test_eq "True" "$(json_get "$TMP/aa2.json" "all(r[\"baseline\"][\"runs\"]==8 and r[\"candidate\"][\"runs\"]==4 for r in rows() if r[\"gated\"])")"
'
test_expect_success PYTHON 'A/A split: the four gated rows form the Holm family' '
	test_eq "4 4" "$(json_get "$TMP/aa2.json" "\"%d %d\" % (d[\"summary\"][\"gated\"], d[\"summary\"][\"holm_family\"])")"
'
test_expect_success PYTHON 'A/A split: no row (gated or shown) says regression or worse' '
	test_eq "0" "$(json_get "$TMP/aa2.json" "sum(r[\"verdict\"] in (\"regression\",\"worse\") for r in rows())")"
'
test_expect_success SCIPY 'A/A split: p-values equal SciPy'\''s' '
	test_eq "12 ok" "$(scipy_check "$TMP/aa2.json")"
'

# ---- DDP against FSDP on the CPU sweep (3 runs per point) ----
test_expect_success 'setup: DDP vs FSDP, 3 vs 3 everywhere, exits 3 (insufficient data)' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json
	cp "$TMP/out" "$TMP/ddp.json"
'
test_expect_success PYTHON 'DDP vs FSDP: 11 gated rows (time and throughput at 4 n, speedup at 3)' '
	test_eq "11" "$(json_get "$TMP/ddp.json" "d[\"summary\"][\"gated\"]")"
'
test_expect_success PYTHON 'DDP vs FSDP: insufficient says 6 runs per side would do across 11 rows' '
	test_eq "6" "$(row_get "$TMP/ddp.json" epoch_time_s 8 "r[\"runs_needed_per_side\"]")"
'
test_expect_success PYTHON 'DDP vs FSDP n=8: FSDP is slower (ratio > 1.5)' '
	test_eq "True" "$(row_get "$TMP/ddp.json" epoch_time_s 8 "r[\"ratio\"]>1.5")"
'
test_expect_success PYTHON 'DDP vs FSDP n=8: FSDP has less throughput (ratio < 0.67)' '
	test_eq "True" "$(row_get "$TMP/ddp.json" throughput 8 "r[\"ratio\"]<0.67")"
'
test_expect_success PYTHON 'DDP vs FSDP n=8: FSDP scales worse (speedup ratio < 0.67)' '
	test_eq "True" "$(row_get "$TMP/ddp.json" speedup 8 "r[\"ratio\"]<0.67")"
'
test_expect_success PYTHON 'DDP vs FSDP n=8: the runs separate completely (exact p = 2/20)' '
	test_eq "0.1 exact" "$(row_get "$TMP/ddp.json" epoch_time_s 8 "\"%g %s\" % (r[\"p\"], r[\"method\"])")"
'
test_expect_success SCIPY 'DDP vs FSDP: p-values equal SciPy'\''s' '
	test_eq "14 ok" "$(scipy_check "$TMP/ddp.json")"
'
test_expect_success PYTHON 'compare exits 0 on the same input and prints the ratio with its interval (as in --json)' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
	test_contains "$(row_get "$TMP/ddp.json" epoch_time_s 8 "\"%.3f [%.3f, %.3f]\" % (r[\"ratio\"], r[\"ci\"][\"lo\"], r[\"ci\"][\"hi\"])")" "$OUT"
'

# Where the run count allows: one gated row, alpha 0.1 (3 vs 3 reaches p = 0.1).
test_expect_success 'setup: amdahl.yaml with alpha 0.1' '
	printf "gate:\n  alpha: 0.1\n" >"$TMP/a10.yaml"
'
test_expect_success PYTHON 'FSDP against DDP at n=8, epoch time, alpha 0.1: regression with Holm p 0.1, exit 1' '
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:ddp \
		--candidate cpu-strong-scaling:fsdp --n 8 --only epoch_time_s --json
	cp "$TMP/out" "$TMP/one.json"
	test_eq "regression 0.1" "$(row_get "$TMP/one.json" epoch_time_s 8 "\"%s %g\" % (r[\"verdict\"], r[\"p_holm\"])")"
'
test_expect_success PYTHON 'DDP against FSDP at n=8 (swapped): improvement, exit 0' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:fsdp \
		--candidate cpu-strong-scaling:ddp --n 8 --only epoch_time_s --json
	cp "$TMP/out" "$TMP/sw.json"
	test_eq "improvement" "$(row_get "$TMP/sw.json" epoch_time_s 8 "r[\"verdict\"]")"
'
# throughput: higher is better, so less of it is the regression
test_expect_success PYTHON 'FSDP throughput at n=8 (higher is better): direction higher, regression, exit 1' '
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:ddp \
		--candidate cpu-strong-scaling:fsdp --n 8 --only throughput --json
	cp "$TMP/out" "$TMP/tp.json"
	test_eq "higher regression" "$(row_get "$TMP/tp.json" throughput 8 "r[\"direction\"]+\" \"+r[\"verdict\"]")"
'
test_expect_success 'DDP throughput against FSDP at n=8: improvement in the table, exit 0' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:fsdp \
		--candidate cpu-strong-scaling:ddp --n 8 --only throughput
	test_contains "improvement" "$OUT"
'

# ---- fp32 against bf16 on the H100 batch sweep ----
test_expect_success 'setup: fp32 vs bf16 per batch size, 3 vs 3, exits 3' '
	test_status 3 "$AMDAHL" --store "$TMP/gpu.db" gate --axis global_batch_size --baseline gpu-batch-sweep:fp32 \
		--candidate gpu-batch-sweep:bf16 --json
	cp "$TMP/out" "$TMP/bs.json"
'
test_expect_success PYTHON 'batch axis: 8, 16, 32, 64 compared' '
	test_eq "[8, 16, 32, 64]" "$(json_get "$TMP/bs.json" "sorted({int(r[\"n\"]) for r in rows()})")"
'
test_expect_success PYTHON 'batch axis: speedup is shown, not gated (8 gated rows)' '
	test_eq "8" "$(json_get "$TMP/bs.json" "d[\"summary\"][\"gated\"]")"
'
test_expect_success PYTHON 'b=64: bf16 epochs are shorter (ratio < 0.5)' '
	test_eq "True" "$(row_get "$TMP/bs.json" epoch_time_s 64 "r[\"ratio\"]<0.5")"
'
test_expect_success PYTHON 'b=64: bf16 has more throughput (ratio > 2)' '
	test_eq "True" "$(row_get "$TMP/bs.json" throughput 64 "r[\"ratio\"]>2")"
'
test_expect_success PYTHON 'b=64: insufficient; 6 per side would do (5 vs 5 gives 0.0079 > 0.05/8)' '
	test_eq "insufficient_data 6" "$(row_get "$TMP/bs.json" epoch_time_s 64 "r[\"verdict\"]+\" \"+str(r[\"runs_needed_per_side\"])")"
'
test_expect_success SCIPY 'batch axis: p-values equal SciPy'\''s (4 b x 6 metrics + speedup, efficiency at 3 b)' '
	test_eq "30 ok" "$(scipy_check "$TMP/bs.json")"
'

# On the world-size axis each strategy is one configuration of 12 runs (3 per
# batch size on both sides): energy per epoch, listed in amdahl.yaml, is gated.
test_expect_success 'setup: bf16 against fp32 with energy per epoch gated: improvement, exit 0' '
	printf "gate:\n  metrics:\n    energy_epoch_j:\n      direction: lower\n      threshold: 0.1\n" >"$TMP/energy.yaml"
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" gate --baseline gpu-batch-sweep:fp32 \
		--candidate gpu-batch-sweep:bf16 --json
	cp "$TMP/out" "$TMP/en.json"
'
test_expect_success PYTHON 'energy per epoch: 12 vs 12, gated, improvement, ratio < 0.5' '
	test_eq "12 12 True improvement True" "$(row_get "$TMP/en.json" energy_epoch_j 1 "\"%d %d %s %s %s\" % (r[\"baseline\"][\"runs\"], r[\"candidate\"][\"runs\"], r[\"gated\"], r[\"verdict\"], r[\"ratio\"]<0.5)")"
'
test_expect_success PYTHON 'energy: Holm p below 0.05 across 3 gated rows' '
	test_eq "3 True" "$(json_get "$TMP/en.json" "\"%d %s\" % (d[\"summary\"][\"gated\"], row(\"energy_epoch_j\")[\"p_holm\"]<0.05)")"
'
test_expect_success PYTHON 'energy per run is shown, not gated: an improvement in JSON, "better" in the table' '
	test_eq "False improvement" "$(row_get "$TMP/en.json" energy_run_j 1 "\"%s %s\" % (r[\"gated\"], r[\"verdict\"])")" &&
	"$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" compare --baseline gpu-batch-sweep:fp32 \
		--candidate gpu-batch-sweep:bf16 >"$TMP/en.txt" &&
	test_eq 1 "$(grep -c "^energy_run_j .* better$" "$TMP/en.txt")"
'
test_expect_success SCIPY 'energy gate: p-values equal SciPy'\''s (6 metrics)' '
	test_eq "6 ok" "$(scipy_check "$TMP/en.json")"
'
test_expect_success 'setup: fp32 against bf16, energy gated: regression, exit 1, terminal says FAIL' '
	test_status 1 "$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" gate --baseline gpu-batch-sweep:bf16 \
		--candidate gpu-batch-sweep:fp32 --junit "$TMP/gate.xml" --markdown "$TMP/gate.md"
	test_contains "gate: FAIL" "$OUT"
'

# ---- JUnit and Markdown ----
test_expect_success XMLLINT 'the JUnit file parses as XML' '
	test_status 0 xmllint --noout "$TMP/gate.xml"
'
test_expect_success PYTHON 'JUnit: one test case per row of compare --json' '
	test_eq "$(grep -c "<testcase " "$TMP/gate.xml")" \
		"$("$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" compare --baseline gpu-batch-sweep:bf16 --candidate gpu-batch-sweep:fp32 --json | json_get - "len(rows())")"
'
test_expect_success XMLLINT 'JUnit: one failure, on energy per epoch' '
	test_eq "1 amdahl.gate.energy_epoch_j" \
		"$(xmllint --xpath "count(//failure)" "$TMP/gate.xml") $(xmllint --xpath "string(//testcase[failure]/@classname)" "$TMP/gate.xml")"
'
test_expect_success XMLLINT,PYTHON 'JUnit: the failure carries the numbers (as in compare --json)' '
	want=$("$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" compare --baseline gpu-batch-sweep:bf16 \
		--candidate gpu-batch-sweep:fp32 --json |
		json_get - "(lambda r: \"ratio %.3f [%.3f, %.3f]\" % (r[\"ratio\"], r[\"ci\"][\"lo\"], r[\"ci\"][\"hi\"]))(first(rows(), metric=\"energy_epoch_j\", verdict=\"regression\", gated=True))") &&
	test_contains "$want" "$(xmllint --xpath "string(//failure/@message)" "$TMP/gate.xml")"
'
test_expect_success XMLLINT 'JUnit: insufficient rows are skipped test cases with the reason, none fails' '
	"$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --junit "$TMP/ins.xml" >/dev/null
	test_eq "11 0" \
		"$(xmllint --xpath "count(//skipped[starts-with(@message,\"insufficient data\")])" "$TMP/ins.xml") $(xmllint --xpath "count(//failure)" "$TMP/ins.xml")"
'
test_expect_success 'the Markdown table is well formed' '
	test_eq "ok" "$(md_shape "$TMP/gate.md")"
'
test_expect_success 'the Markdown bolds the regression' '
	test_contains "**regression**" "$(cat "$TMP/gate.md")"
'
test_expect_success 'GITHUB_STEP_SUMMARY is appended to, not replaced' '
	echo "earlier step" >"$TMP/summary.md" &&
	GITHUB_STEP_SUMMARY="$TMP/summary.md" "$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --step-summary >/dev/null
	GITHUB_STEP_SUMMARY="$TMP/summary.md" "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --step-summary >/dev/null
	test_eq "earlier step|### amdahl gate: PASS|### amdahl gate: INSUFFICIENT DATA" \
		"$(grep -E "^(earlier|###)" "$TMP/summary.md" | paste -sd"|")"
'
test_expect_success 'GITHUB_STEP_SUMMARY is left alone without --step-summary (gate --json > file)' '
	echo "earlier step" >"$TMP/summary2.md" &&
	GITHUB_STEP_SUMMARY="$TMP/summary2.md" "$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --json >"$TMP/g.json"
	test_eq "earlier step" "$(cat "$TMP/summary2.md")"
	test_status 2 env -u GITHUB_STEP_SUMMARY "$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --step-summary
	test_contains "GITHUB_STEP_SUMMARY is not set" "$ERR"
'

# ---- a configuration on one side only: listed as missing; fails only with --require-all ----
test_expect_success 'setup: the CPU sweep without n=8, ingested as no8' '
	mkdir -p "$TMP/no8/mlruns/4" && cp "$CPU/4/meta.yaml" "$TMP/no8/mlruns/4/" &&
	(
		for d in "$CPU"/4/*/; do
			[ -f "$d/params/world_size" ] && [ "$(cat "$d/params/world_size")" = 8 ] && continue
			cp -r "$d" "$TMP/no8/mlruns/4/" || exit 1
		done
	) &&
	"$AMDAHL" --store "$TMP/no8.db" ingest -q --sweep no8 "$TMP/no8/mlruns"
'
test_expect_success 'setup: n=8 only in the baseline: missing, not a failure (exit 3 for 3 vs 3)' '
	test_status 3 "$AMDAHL" --store "$TMP/no8.db" gate --baseline-store "$TMP/cpu.db" --baseline cpu-strong-scaling --candidate no8 --json
	cp "$TMP/out" "$TMP/no8.json"
'
test_expect_success PYTHON 'n=8 rows are missing, with the side named' '
	test_eq "insufficient_data only in the baseline" "$(row_get "$TMP/no8.json" epoch_time_s 8 "r[\"verdict\"]+\" \"+r[\"note\"]")"
'
test_expect_success PYTHON 'the candidate'\''s own speedups still compare at n=2 and 4' '
	test_eq "[2, 4]" "$(json_get "$TMP/no8.json" "sorted({int(r[\"n\"]) for r in rows() if r[\"metric\"]==\"speedup\" and r[\"baseline\"][\"runs\"] and r[\"candidate\"][\"runs\"]})")"
'
test_expect_success 'with --require-all the missing configuration fails the gate' '
	test_status 1 "$AMDAHL" --store "$TMP/no8.db" gate --baseline-store "$TMP/cpu.db" --baseline cpu-strong-scaling --candidate no8 --require-all
'

test_done
