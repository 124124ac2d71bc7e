# gate_output.sh — what the noise let a comparison see, and the outputs
# people already read, on the bundled CPU sweep (FSDP against DDP: 3 vs 3
# runs, too few for the test, but at n = 8 a 2.27x slowdown whose
# interval lies wholly past the threshold) and on an experiment with 6
# runs per arm made from the sweep's real ddp n=8 runs
# (tests/lib/mlruns_groups.py). Detectable changes and likely regressions
# are checked against numpy/scipy (tests/oracle/gate_noise.py), the CSV
# against the JSON, the benchstat table's deltas against the verdicts.
test_description='gate: smallest detectable change, likely regressions, --fallback ci, benchstat, csv, Markdown'
. "$(dirname "$0")/../test-lib.sh"

GROUPS_PY="$AMDAHL_ROOT/tests/lib/mlruns_groups.py"
NOISE="$AMDAHL_ROOT/tests/oracle/gate_noise.py"
CPU=$DATA/cpu-strong-scaling/mlruns
GATE_FSDP="gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp"

# oracle_checks JSON [CSV] [--junit XML] — each "ok -"/"not ok -" line of gate_noise.py
# is one assertion.
oracle_checks() {
	local line n=0
	"$PY" "$NOISE" "$@" >"$TMP/noise.out"
	while IFS= read -r line; do
		case "$line" in
		"ok - "* | "not ok - "*) n=$((n + 1)); test_eq "ok - ${line#*ok - }" "$line" ;;
		"#"*) echo "$line" >&2 ;;
		esac
	done <"$TMP/noise.out"
	test_true "gate_noise.py made checks ($n)" [ "$n" -gt 2 ]
}

test_expect_success 'setup: the CPU sweep, and two arms of 6 runs in one experiment' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU" &&
	"$PY" "$GROUPS_PY" "$CPU/4" "$TMP/six" --exp-id 8 --name six --runs ddp-n8 --key param.arm \
		--labels baseline,candidate --slow candidate=1.10 --per-group 6 --noise 3 &&
	"$AMDAHL" --store "$TMP/six.db" ingest -q "$TMP/six" &&
	{ "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --json >"$TMP/f.json"; test $? = 3; }
'

test_expect_success SCIPY 'FSDP against DDP: likely regressions called out, exit 3, numbers as scipy' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --json
	test_eq regression "$(json_get "$TMP/f.json" "row(\"epoch_time_s\", n=8)[\"likely\"]")"
	test_true "likely regressions counted" [ "$(json_get "$TMP/f.json" "d[\"summary\"][\"likely_regressions\"]")" -ge 1 ]
	"$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --format csv >"$TMP/f.csv"
	oracle_checks "$TMP/f.json" "$TMP/f.csv"
'

test_expect_success 'the table says no change was detectable and names the likely regression' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP
	test_contains "11 gated rows cannot detect any change with their run counts" "$OUT"
	test_contains "likely regression: epoch_time_s ddp→fsdp n=8 ratio 2.269 [2.100, 2.393] (89%) lies wholly past the 5% threshold" "$OUT"
'

test_expect_success '--fallback ci fails the gate on the likely regressions, JUnit counts them' '
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --fallback ci --junit "$TMP/f.xml"
	test_eq "gate: FAIL (5 likely regressions, failing with --fallback ci: see noise)" "$(tail -n 1 "$TMP/out")"
	test_eq "$(json_get "$TMP/f.json" "d[\"summary\"][\"likely_regressions\"]")" \
		"$(sed -n "s/.*<testsuites [^>]*failures=\"\([0-9]*\)\".*/\1/p" "$TMP/f.xml")"
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --fallback t
'

test_expect_success SCIPY '6 vs 6 runs: detectable changes as scipy computes them; the CSV has the JSON numbers' '
	test_status 0 "$AMDAHL" --store "$TMP/six.db" gate --baseline param.arm=baseline --candidate param.arm=candidate --json
	echo "$OUT" >"$TMP/six.json"
	"$AMDAHL" --store "$TMP/six.db" gate --baseline param.arm=baseline --candidate param.arm=candidate \
		--format csv >"$TMP/six.csv"
	oracle_checks "$TMP/six.json" "$TMP/six.csv"
	test_true "epoch time has a finite detectable change" [ "$(json_get "$TMP/six.json" "row(\"epoch_time_s\", n=8)[\"detectable_change\"] > 0")" = True ]
'

test_expect_success SCIPY 'JUnit: every testcase carries its smallest detectable change (property and system-out), as scipy computes it' '
	"$AMDAHL" --store "$TMP/six.db" gate --baseline param.arm=baseline --candidate param.arm=candidate \
		--junit "$TMP/six.xml" >/dev/null &&
	oracle_checks "$TMP/six.json" --junit "$TMP/six.xml"
	test_true "a finite value among them" grep -Eq "detectable_change\" value=\"0\.[0-9]+\"" "$TMP/six.xml"
	{ "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --junit "$TMP/none.xml" >/dev/null; test $? = 3; } &&
	oracle_checks "$TMP/f.json" --junit "$TMP/none.xml"
	test_contains "could detect: none (3 vs 3 runs cannot reach" "$(cat "$TMP/none.xml")"
'

test_expect_success PYTHON 'benchstat: one line per gated row, ~ unless the verdict changed, geomean rows' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --format benchstat
	echo "$OUT" >"$TMP/bench.txt"
	test_contains "epoch_time_s ddp→fsdp n=8  1.112 ± 4%" "$OUT"
	test_contains "~ likely $(json_get "$TMP/f.json" "\"%+.2f%%\" % (100 * (row(\"epoch_time_s\", n=8)[\"ratio\"] - 1))")" "$OUT"
	test_contains "(p=0.100 n=3+3)" "$OUT"
	test_eq "$(json_get "$TMP/f.json" "len([r for r in d[\"rows\"] if r[\"gated\"]])")" \
		"$(grep -c "(p=" "$TMP/bench.txt")"
	want=$(json_get "$TMP/f.json" "(lambda rs: \"%+.2f%%\" % (100 * (math.exp(sum(math.log(r[\"candidate\"][\"median\"]) for r in rs) / len(rs)) / math.exp(sum(math.log(r[\"baseline\"][\"median\"]) for r in rs) / len(rs)) - 1)))([r for r in d[\"rows\"] if r[\"gated\"] and r[\"metric\"] == \"epoch_time_s\"])")
	test_contains "$want" "$(grep "^geomean epoch_time_s" "$TMP/bench.txt")"
	test_contains "asv" "$OUT"
'

test_expect_success 'Markdown leads with the verdict, the deciding rows, then the noise' '
	test_status 3 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --markdown "$TMP/g.md"
	test_eq "### amdahl gate: INSUFFICIENT DATA" "$(head -n 1 "$TMP/g.md")"
	decided=$(grep -n "^Decided by:" "$TMP/g.md" | cut -d: -f1)
	table=$(grep -n "^| metric" "$TMP/g.md" | head -n 1 | cut -d: -f1)
	test_true "Decided by comes before the table" [ -n "$decided" ] && [ "$decided" -lt "$table" ]
	test_contains "- likely regression: epoch_time_s ddp→fsdp n=8" "$(cat "$TMP/g.md")"
'

test_expect_success PYTHON '--fallback ci: Markdown and JUnit call the failing rows likely regressions, as the last line does' '
	test_status 1 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --fallback ci --markdown "$TMP/fb.md" --junit "$TMP/fb.xml"
	likely=$(json_get "$TMP/f.json" "sum(1 for r in d[\"rows\"] if r[\"gated\"] and r[\"likely\"] == \"regression\")")
	test_true "likely regressions in the JSON ($likely)" [ "$likely" -ge 1 ]
	decided=$(grep -n "^Decided by:" "$TMP/fb.md" | cut -d: -f1)
	tail -n +$((decided + 2)) "$TMP/fb.md" | sed -n "/^\$/q;p" >"$TMP/fb.decided"
	test_eq "$likely" "$(grep -c "^- likely regression (failing with --fallback ci): " "$TMP/fb.decided")"
	test_eq "$likely" "$(wc -l <"$TMP/fb.decided")"
	test_eq "$likely" "$(grep -c "<failure type=\"likely regression (failing with --fallback ci)\" message=\"likely regression (failing with --fallback ci): " "$TMP/fb.xml")"
	test_eq "$likely" "$(grep -c "<failure " "$TMP/fb.xml")"
'

test_expect_success '--format rejects what it does not know' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" $GATE_FSDP --format xml
	test_contains "not table, benchstat, pr-comment or csv" "$ERR"
'

test_done
