#!/bin/bash
# report_compare.sh — `amdahl report build --baseline A [--candidate B]` on
# the real sweeps: DDP against FSDP on cpu-strong-scaling, an A/A of that
# sweep ingested twice under two names, and fp32 against bf16 on the H100
# sweep with energy gated (a regression). Every expected string comes from
# `amdahl compare --json` with the same inputs: the verdict and every ratio
# in the PDF's text, report.json's "gate" object equal to compare's rows
# and summary, the comparison chart's bar ends and whiskers read back from
# the PNG's pixels, and `amdahl mail --dry-run` of the report directory
# carrying the gate's result.
test_description='report build --baseline: the comparison in the PDF, report.json, charts, summaries and mail'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep/mlruns

# result_of CMP.json — the gate's result in report.json's words
# (regression, insufficient, pass), from compare --json's summary.
result_of() {
	json_get "$1" '"regression" if d["summary"]["regressions"] else "insufficient" if d["summary"]["insufficient"] else "pass"'
}
# json_of RESULT — the JSON's word for it (the one verdict vocabulary).
json_of() {
	case $1 in insufficient) echo insufficient_data ;; *) echo "$1" ;; esac
}
# word_of RESULT — the PDF's word for it.
word_of() {
	case $1 in regression) echo FAIL ;; insufficient) echo "INSUFFICIENT DATA" ;; *) echo PASS ;; esac
}
# moving_bars CMP.json — how many gated rows have a ratio away from 1 (a bar).
moving_bars() {
	json_get "$1" 'sum(r["gated"] and r["ratio"] is not None and abs(r["ratio"]-1)>0.02 for r in rows())'
}

# build_compared NAME STORE CONFIG(or -) BUILD-ARGS... — compare --json of
# the same sweeps into $TMP/NAME-cmp.json, then report build -o $TMP/NAME
# --json BUILD-ARGS (its output in $TMP/NAME-build.json), which must exit 0.
# CAND_DEFAULT: the reported sweep, when BUILD-ARGS name no candidate.
build_compared() {
	local name=$1 store=$2 config=$3 a skip=0
	shift 3
	local cfg=() cmpargs=()
	[ "$config" != - ] && cfg=(--config "$config")
	# compare takes no --sweep: drop "--sweep S" from its arguments
	for a in "$@"; do
		if [ $skip = 1 ]; then skip=0; continue; fi
		[ "$a" = --sweep ] && { skip=1; continue; }
		cmpargs+=("$a")
	done
	# report build compares the reported sweep when --candidate is absent; compare needs it
	case " $* " in *" --candidate "*) ;; *) cmpargs+=(--candidate "$CAND_DEFAULT") ;; esac
	"$AMDAHL" --store "$store" "${cfg[@]}" compare --json "${cmpargs[@]}" >"$TMP/$name-cmp.json"
	test_status 0 "$AMDAHL" --store "$store" "${cfg[@]}" report build -o "$TMP/$name" --json "$@"
	cp "$TMP/out" "$TMP/$name-build.json"
}

# compared_report_cases NAME — the cases every report built by
# build_compared NAME passes, each against compare --json of the same sweeps.
compared_report_cases() {
	name=$1
	test_expect_success PYTHON "$name: build --json reports the gate result compare's summary gives" '
		test_eq "$(json_of "$(result_of "$TMP/$name-cmp.json")")" "$(json_get "$TMP/$name-build.json" "d[\"gate\"]")"
	'
	test_expect_success PYTHON "$name: report.json gate.result is compare's result" '
		test_eq "$(json_of "$(result_of "$TMP/$name-cmp.json")")" "$(json_get "$TMP/$name/report.json" "d[\"gate\"][\"result\"]")"
	'
	test_expect_success PYTHON "$name: report.json gate rows and summary equal compare --json's" '
		test_eq "equal" "$("$PY" "$AMDAHL_ROOT/tests/lib/report_gate_equals_compare.py" "$TMP/$name/report.json" "$TMP/$name-cmp.json")"
	'
	test_expect_success PDFTOTEXT,PYTHON "$name: page 1 says 'gate: WORD' for compare's result" '
		test_contains "gate: $(word_of "$(result_of "$TMP/$name-cmp.json")"):" \
			"$(pdftotext -f 1 -l 1 "$TMP/$name/report.pdf" - | tr -s " \n" " ")"
	'
	test_expect_success PDFTOTEXT "$name: page 2 is the comparison page" '
		test_contains "Comparison with the baseline" "$(pdftotext -f 2 -l 2 "$TMP/$name/report.pdf" - | tr -s " \n" " ")"
	'
	test_expect_success PDFTOTEXT,PYTHON "$name: every row's ratio [CI] and verdict from compare --json is in the PDF" '
		pdftotext -layout "$TMP/$name/report.pdf" "$TMP/$name.txt" &&
		test_eq "$(json_get "$TMP/$name-cmp.json" "sum(r[\"ratio\"] is not None for r in rows())") []" \
			"$("$PY" "$AMDAHL_ROOT/tests/oracle/compare_rows_in_text.py" "$TMP/$name-cmp.json" "$TMP/$name.txt")"
	'
	test_expect_success "$name: summary.md has the comparison section" '
		test_contains "## Comparison with the baseline" "$(cat "$TMP/$name/summary.md")"
	'
	test_expect_success "$name: summary.html has the comparison section" '
		test_contains "<h2>Comparison with the baseline</h2>" "$(cat "$TMP/$name/summary.html")"
	'
	test_expect_success PYTHON "$name: mail --dry-run of the report exits 0; its subject and text body name the gate result" '
		test_status 0 "$AMDAHL" mail --to ci@example.org --dry-run "$TMP/$name.eml" "$TMP/$name"
		test_eq "True True" \
			"$("$PY" "$AMDAHL_ROOT/tests/lib/mail_gate_result.py" "$TMP/$name.eml" "$(result_of "$TMP/$name-cmp.json")")"
	'
}

test_expect_success 'setup: ingest the CPU sweep (as itself, run-a and run-b) and the H100 sweep' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU" &&
	# the store keeps a file once: the second ingest under another name goes to its own store
	"$AMDAHL" --store "$TMP/a.db" ingest -q --sweep run-a "$CPU" &&
	"$AMDAHL" --store "$TMP/b.db" ingest -q --sweep run-b "$CPU" &&
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$GPU" &&
	printf "gate:\n  metrics:\n    energy_epoch_j:\n      direction: lower\n      threshold: 0.1\n" >"$TMP/energy.yaml"
'

# ---- DDP against FSDP on the CPU sweep (3 vs 3 runs) ----
test_expect_success 'setup: ddp: report build --baseline DDP --candidate FSDP exits 0' '
	build_compared ddp "$TMP/cpu.db" - --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
'
compared_report_cases ddp
test_expect_success PYTHON 'ddp: 3 vs 3 per configuration cannot reach 0.05: insufficient' '
	test_eq "insufficient" "$(result_of "$TMP/ddp-cmp.json")"
'
test_expect_success PIL 'ddp: the comparison chart'\''s bars lie where the ratios put them' '
	test_eq "$(moving_bars "$TMP/ddp-cmp.json") bars ok" \
		"$("$PY" "$AMDAHL_ROOT/tests/lib/comparison_chart_bars.py" "$TMP/ddp/charts/comparison.png" "$TMP/ddp-cmp.json")"
'
test_expect_success 'ddp: charts/comparison.svg written' '
	test_true "charts/comparison.svg is not empty" test -s "$TMP/ddp/charts/comparison.svg"
'
test_expect_success PYTHON 'ddp: report.json names the comparison chart' '
	test_eq "charts/comparison.png" "$(json_get "$TMP/ddp/report.json" "d[\"gate\"][\"png\"]")"
'
# FSDP is slower at every n: every epoch-time ratio above 1, every throughput ratio below
test_expect_success PYTHON 'ddp: FSDP epochs are longer (ratio > 1) and throughput lower (< 1) at every n' '
	test_eq "True True" "$(json_get "$TMP/ddp/report.json" "\"%s %s\" % (all(x[\"ratio\"]>1 for x in d[\"gate\"][\"rows\"] if x[\"metric\"]==\"epoch_time_s\"), all(x[\"ratio\"]<1 for x in d[\"gate\"][\"rows\"] if x[\"metric\"]==\"throughput\"))")"
'
test_expect_success PYTHON 'ddp: the comparison adds one page' '
	n_plain=$("$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/plain" --json | json_get - "d[\"pages\"]") &&
	test_eq "$((n_plain + 1))" "$(json_get "$TMP/ddp-build.json" "d[\"pages\"]")"
'

# ---- A/A: the sweep ingested twice under two names, run-b against run-a ----
test_expect_success 'setup: aa: report build of run-b --baseline run-a (another store) exits 0' '
	CAND_DEFAULT=run-b build_compared aa "$TMP/b.db" - --baseline run-a --baseline-store "$TMP/a.db"
'
compared_report_cases aa
test_expect_success PYTHON 'A/A: every ratio is 1 and no row says regression or worse' '
	test_eq "True 0" "$(json_get "$TMP/aa/report.json" "\"%s %s\" % (all(x[\"ratio\"]==1 for x in d[\"gate\"][\"rows\"]), sum(x[\"verdict\"] in (\"regression\",\"worse\") for x in d[\"gate\"][\"rows\"]))")"
'
test_expect_success PYTHON 'A/A: the candidate defaults to the reported sweep' '
	test_eq "run-b" "$(json_get "$TMP/aa/report.json" "d[\"gate\"][\"candidate\"][\"sweep\"]")"
'
test_expect_success PYTHON 'A/A: every gated row is charted at ratio 1 (bars of no length)' '
	test_eq "0" "$(json_get "$TMP/aa-cmp.json" "sum(r[\"gated\"] and abs(r[\"ratio\"]-1)>0.02 for r in rows())")"
'

# ---- fp32 against bf16 on the H100 sweep, energy per epoch gated: FAIL ----
test_expect_success 'setup: gpu: report build --baseline bf16 --candidate fp32, energy gated, exits 0' '
	build_compared gpu "$TMP/gpu.db" "$TMP/energy.yaml" --baseline gpu-batch-sweep:bf16 --candidate gpu-batch-sweep:fp32
'
compared_report_cases gpu
test_expect_success PYTHON 'gpu: energy per epoch regressed (compare says so)' '
	test_eq "regression" "$(result_of "$TMP/gpu-cmp.json")"
'
test_expect_success PIL 'gpu: the comparison chart'\''s bars lie where the ratios put them, regression in vermillion' '
	test_eq "$(moving_bars "$TMP/gpu-cmp.json") bars ok" \
		"$("$PY" "$AMDAHL_ROOT/tests/lib/comparison_chart_bars.py" "$TMP/gpu/charts/comparison.png" "$TMP/gpu-cmp.json")"
'
test_expect_success PDFTOTEXT,PYTHON 'gpu: the findings sentence names the regressed row with its ratio' '
	want=$(json_get "$TMP/gpu-cmp.json" "(lambda r: \"%s %s→%s n=%g ratio %.3f [%.3f, %.3f]\" % (r[\"metric\"], r[\"strategy\"], r[\"candidate_strategy\"], r[\"n\"], r[\"ratio\"], r[\"ci\"][\"lo\"], r[\"ci\"][\"hi\"]))(first(rows(), verdict=\"regression\"))") &&
	test_contains "$want" "$(pdftotext -f 1 -l 1 "$TMP/gpu/report.pdf" - | tr -s " \n" " ")"
'

# ---- a rebuild without --baseline drops the comparison ----
test_expect_success PYTHON 'rebuild without --baseline removes charts/comparison.png and the gate in report.json' '
	"$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/ddp" >/dev/null
	test_path_is_missing "$TMP/ddp/charts/comparison.png"
	test_eq "False" "$(json_get "$TMP/ddp/report.json" "d[\"gate\"] is not None")"
'

# ---- errors ----
test_expect_success 'an unknown baseline sweep: exit 2, the error names the sweep' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" --baseline nope
	test_contains "nope" "$ERR"
'
test_expect_success '--candidate without --baseline: usage error' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" --candidate cpu-strong-scaling:fsdp
'
test_expect_success 'SWEEP: with an empty strategy: usage error' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" --baseline cpu-strong-scaling:
'
test_expect_success 'a missing baseline store: exit 2' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" --baseline run-a --baseline-store "$TMP/none.db"
'

test_done
