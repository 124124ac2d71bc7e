# gate_ci.sh — the gate in CI at real repeat counts, on the bundled CPU
# sweep (3 runs per configuration): identical data 3 vs 3 is insufficient
# (exit 3) and --on-insufficient / gate.on_insufficient turn that into a
# warning or a pass; one call writes the JUnit, the Markdown and the JSON
# files; --format pr-comment prints the comment body; and action.yml's
# steps, run as GitHub runs them (inputs substituted, GITHUB_ACTION_PATH,
# GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), give the files and the exit code;
# gate --baseline-last N pools the N groups before the candidate (on the
# 24-commit history, a 20% step that 3 vs 3 cannot decide; p_min as scipy).
test_description='gate in CI: --on-insufficient, every output in one call, pr-comment, action.yml'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
SAME="gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:ddp"
FSDP="gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp"

test_expect_success 'setup: the CPU sweep' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU"
'
test_expect_success 'identical data, 3 runs a side: insufficient data, exit 3 by default' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $SAME
	test_contains "INSUFFICIENT" "$OUT"
'
test_expect_success '--on-insufficient=warn: exit 0 with a warning that says why' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" $SAME --on-insufficient=warn
	test_contains "warning: insufficient data to decide" "$ERR"
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" $SAME --on-insufficient=pass
	test_eq "" "$ERR"
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $SAME --on-insufficient=fail
'
test_expect_success '--on-insufficient does not hide a regression (--fallback ci, exit 1)' '
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" $FSDP --fallback ci --on-insufficient=pass
	# the count line says 0 regressions: the last line says what failed
	test_contains "0 regressions, 0 improvements, 11 insufficient data" "$OUT"
	test_eq "gate: FAIL (5 likely regressions, failing with --fallback ci: see noise)" \
		"$(printf "%s\n" "$OUT" | tail -1)"
	test_eq 5 "$(printf "%s\n" "$OUT" | grep -c "^  likely regression: ")"
'
test_expect_success 'a wrong --on-insufficient value is an error naming the choices' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" $SAME --on-insufficient=ignore
	test_contains "amdahl gate: --on-insufficient: '\''ignore'\'' is not fail, warn or pass" "$ERR"
'
test_expect_success 'gate.on_insufficient in amdahl.yaml; the option wins over it' '
	printf "gate:\n  on_insufficient: warn\n" >"$TMP/warn.yaml" &&
	test_status 0 "$AMDAHL" --config "$TMP/warn.yaml" --store "$TMP/cpu.db" $SAME
	test_contains "warning: insufficient data" "$ERR"
	test_status 3 "$AMDAHL" --config "$TMP/warn.yaml" --store "$TMP/cpu.db" $SAME --on-insufficient fail
	printf "gate:\n  on_insufficient: maybe\n" >"$TMP/bad.yaml" &&
	test_status 2 "$AMDAHL" --config "$TMP/bad.yaml" --store "$TMP/cpu.db" $SAME
	test_contains "gate.on_insufficient: '\''maybe'\'' is not fail, warn or pass" "$ERR"
'
test_expect_success 'one call writes the JUnit, the Markdown and the JSON, and prints the table' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" $SAME --on-insufficient=warn \
		--junit "$TMP/one.xml" --markdown "$TMP/one.md" --json-file "$TMP/one.json"
	test_contains "gate: INSUFFICIENT" "$OUT"
	test_eq insufficient_data "$(json_get "$TMP/one.json" "d[\"result\"]")"
	test_eq 0 "$(json_get "$TMP/one.json" "d[\"exit\"]")"
	test_contains "### amdahl gate: INSUFFICIENT DATA" "$(cat "$TMP/one.md")"
	test_true "JUnit is XML with test cases" grep -q "<testcase" "$TMP/one.xml"
	"$AMDAHL" --store "$TMP/cpu.db" $SAME --json >"$TMP/plain.json"
	test_eq "$(json_get "$TMP/plain.json" "len(d[\"rows\"])")" "$(json_get "$TMP/one.json" "len(d[\"rows\"])")"
'
test_expect_success '--format pr-comment prints the Markdown body: verdict, table, detectable change' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $SAME --format pr-comment
	test_eq "$(cat "$TMP/one.md")" "$OUT"
	test_contains "| metric" "$OUT"
	test_contains "detect" "$OUT"
'

# run_action KEY=VALUE... — action.yml's steps as GitHub runs a composite
# action: each input from KEY=VALUE or its default, ${{ inputs.X }}
# substituted into the step's env, run with bash from $TMP/job.
run_action() {
	"$PY" - "$AMDAHL_ROOT/action.yml" "$@" >"$TMP/steps.sh" <<-'PYEOF'
	import re, shlex, sys, yaml
	act = yaml.safe_load(open(sys.argv[1]))
	given = dict(a.split("=", 1) for a in sys.argv[2:])
	inputs = {k: given.get(k, str(v.get("default", ""))) for k, v in act["inputs"].items()}
	missing = [k for k, v in act["inputs"].items() if v.get("required") and k not in given]
	assert not missing, missing
	assert act["runs"]["using"] == "composite"
	sub = lambda s: re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], str(s))
	for step in act["runs"]["steps"]:
	    assert step["shell"] == "bash"
	    env = " ".join(f"{k}={shlex.quote(sub(v))}" for k, v in step.get("env", {}).items())
	    print(f"env {env} bash -c {shlex.quote(sub(step['run']))}")
	PYEOF
	# the job's default store (amdahl.db) a copy of the sweep's, made once
	# (on ClickHouse a database: store_copy); the outputs new each time
	mkdir -p "$TMP/job" && find "$TMP/job" -mindepth 1 ! -name amdahl.db -delete &&
	{ [ -n "${job_store:-}" ] || { store_copy "$TMP/cpu.db" "$TMP/job/amdahl.db" && job_store=1; }; } &&
	(cd "$TMP/job" && GITHUB_ACTION_PATH=$AMDAHL_ROOT GITHUB_OUTPUT=$TMP/job/gh-output \
		GITHUB_STEP_SUMMARY=$TMP/job/step-summary.md bash "$TMP/steps.sh")
}

test_expect_success 'action.yml on identical 3 vs 3 data: green (warn), every file written' '
	run_action amdahl="$AMDAHL" baseline=cpu-strong-scaling:ddp candidate=cpu-strong-scaling:ddp
	test_eq 0 "$?"
	test_true "JUnit written" grep -q "<testsuite" "$TMP/job/amdahl-gate.xml"
	test_contains "### amdahl gate: INSUFFICIENT DATA" "$(cat "$TMP/job/amdahl-gate.md")"
	test_eq "$(cat "$TMP/job/amdahl-gate.md")" "$(cat "$TMP/job/step-summary.md")"
	test_eq insufficient_data "$(json_get "$TMP/job/amdahl-gate.json" "d[\"result\"]")"
	test_eq "result=insufficient_data|exit-code=0" "$(paste -sd"|" "$TMP/job/gh-output")"
'
test_expect_success 'action.yml on a regression (--fallback ci): the step fails with exit 1' '
	run_action amdahl="$AMDAHL" baseline=cpu-strong-scaling:ddp candidate=cpu-strong-scaling:fsdp args="--fallback ci"
	test_eq 1 "$?"
	test_true "JUnit counts failures" grep -q "failures=\"[1-9]" "$TMP/job/amdahl-gate.xml"
	test_eq "exit-code=1" "$(sed -n 2p "$TMP/job/gh-output")"
'
# The README's step as a newcomer copies it (its inputs, the sweeps
# renamed to the bundled ones): at three repeats it must still fail a
# 2.27x slowdown — without --fallback ci in its args, warn passed it.
test_expect_success PYTHON 'the README'\''s action step, as written, fails DDP -> FSDP (exit 1)' '
	readme_with=$("$PY" - "$AMDAHL_ROOT/README.md" <<-'\''PYEOF'\''
	import re, shlex, sys, yaml
	b = [b for b in re.findall(r"```text\n(.*?)```", open(sys.argv[1]).read(), re.S)
	     if b.startswith("- uses: amdahl/amdahl@")]
	w = yaml.safe_load(b[0])[0]["with"]
	w.update(store="amdahl.db", baseline="cpu-strong-scaling:ddp", candidate="cpu-strong-scaling:fsdp")
	print(" ".join(shlex.quote(f"{k}={v}") for k, v in w.items()))
	PYEOF
	) &&
	test_contains "on-insufficient=warn" "$readme_with" &&
	eval "run_action amdahl=\"\$AMDAHL\" $readme_with"
	test_eq 1 "$?"
	test_eq "result=regression|exit-code=1" "$(paste -sd"|" "$TMP/job/gh-output")"
'
test_expect_success 'action.yml with on-insufficient fail: exit 3 reaches the job' '
	run_action amdahl="$AMDAHL" baseline=cpu-strong-scaling:ddp candidate=cpu-strong-scaling:ddp on-insufficient=fail
	test_eq 3 "$?"
'

# ---- a baseline pooled from history: gate --baseline-last N --by KEY ----
. "$AMDAHL_ROOT/tests/lib/histories.sh"
HIST="gate --by tag.git_commit --baseline-last 4"
test_expect_success PYTHON 'setup: 24 commits of 3 runs each, epoch time x1.20 from c12 on (nightly), none (aa)' '
	history_mlruns "$AMDAHL_ROOT" "$TMP/hm" &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/hm"
'
test_expect_success PYTHON 'c12 against c11 alone, 3 vs 3: insufficient data' '
	test_status 3 "$AMDAHL" --store "$TMP/h.db" gate --baseline "sweep=nightly,tag.git_commit=c11" \
		--candidate "sweep=nightly,tag.git_commit=c12"
'
test_expect_success SCIPY '--baseline-last 4: c12 against c08..c11 pooled (12 runs) is a regression' '
	test_status 1 "$AMDAHL" --store "$TMP/h.db" $HIST --sweep nightly --candidate c12
	test_contains "baseline: 12 runs of the 4 groups of tag.git_commit before c12 (c08 .. c11), pooled" "$OUT"
	test_contains "gate: FAIL" "$OUT"
	"$AMDAHL" --store "$TMP/h.db" $HIST --sweep nightly --candidate c12 --json >"$TMP/pooled.json"
	test_eq regression "$(json_get "$TMP/pooled.json" "row(\"epoch_time_s\", n=8)[\"verdict\"]")"
	want=$("$PY" -c "from scipy.special import comb; print(2 / comb(15, 3))")
	test_near "$want" "$(json_get "$TMP/pooled.json" "row(\"epoch_time_s\", n=8)[\"p_min\"]")" 1e-12
'
test_expect_success PYTHON '--baseline-last 4 on the unchanged history (aa, last commit): pass' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" $HIST --sweep aa
	test_contains "(c19 .. c22), pooled" "$OUT"
	test_contains "gate: PASS" "$OUT"
'
test_expect_success SCIPY 'benchstat says which p it prints: Holm-adjusted in the family, raw outside it' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $FSDP --format benchstat
	test_contains "(p=0.100 n=3+3)" "$OUT"
	test_contains "a row too small to reach it (outside the Holm family) shows its raw p" "$OUT"
	test_status 1 "$AMDAHL" --store "$TMP/h.db" $HIST --sweep nightly --candidate c12 --format benchstat
	test_contains "(p=$(json_get "$TMP/pooled.json" "\"%.3f\" % row(\"epoch_time_s\", n=8)[\"p_holm\"]") n=12+3)" "$OUT"
	test_not_contains "raw p" "$OUT"
'
test_expect_success '--baseline-last needs --by, and not --history or --baseline' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" gate --baseline-last 4 --sweep aa
	test_contains "--baseline-last N needs --by KEY" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" $HIST --history 4
	test_contains "choose one" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" $HIST --sweep aa --candidate c00
	test_contains "no group of tag.git_commit comes before tag.git_commit=c00" "$ERR"
'

test_done
