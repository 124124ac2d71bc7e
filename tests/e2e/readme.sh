# readme.sh — the README as a user reads it: at most 300 lines, every
# ```sh block run line by line as written, from a directory holding the
# tree's testdata/, with `amdahl` the binary under test (a line ending
# "# exit N" must exit N, every other line 0); the five tasks (ingest,
# stats, report, gate, mail) are among them and do what the text says;
# every file the README points to exists.
test_description='README: short, and every command in it runs'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_TIER "README's blocks run as written, with the binary itself on their SQLite stores"

README=$AMDAHL_ROOT/README.md
BIN=$(cd "$(dirname "$AMDAHL")" && pwd)

test_expect_success 'the README has at most 300 lines, none past 400 characters' '
	test_true "$(wc -l <"$README") lines" [ "$(wc -l <"$README")" -le 300 ]
	test_eq "" "$(awk "length > 400 {print FILENAME\":\"NR}" "$README")"
'
test_expect_success 'setup: the README'\''s shell lines' '
	awk "/^\`\`\`sh\$/{on=1; next} /^\`\`\`/{on=0} on && NF && !/^#/" "$README" >"$TMP/lines" &&
	test_true "shell lines found" [ "$(wc -l <"$TMP/lines")" -ge 8 ]
'
test_expect_success 'every shell line runs with the exit it says' '
	mkdir -p "$TMP/work" && ln -s "$AMDAHL_ROOT/testdata" "$TMP/work/testdata" &&
	while IFS= read -r line; do
		want=0
		case "$line" in *"# exit "[0-9]*) want=${line##*# exit } ;; esac
		(cd "$TMP/work" && PATH="$BIN:$PATH" bash -c "$line" >"$TMP/line.out" 2>"$TMP/line.err")
		rc=$?
		test_true "exit $rc, wanted $want: $line ($(head -c 300 "$TMP/line.err"))" [ "$rc" = "$want" ]
	done <"$TMP/lines"
'
test_expect_success 'the five tasks are there and did what the README says' '
	for c in ingest stats "report build" gate mail; do
		test_true "README runs amdahl ... $c" grep -q "amdahl .*$c" "$TMP/lines"
	done
	test_path_exists "$TMP/work/demo-report/report.pdf"
	test_true "JUnit written" grep -q "<testsuite" "$TMP/work/gate.xml"
	test_contains "### amdahl gate: FAIL" "$(cat "$TMP/work/gate.md")"
	test_eq insufficient_data "$(json_get "$TMP/work/gate.json" "d[\"result\"]")"
	test_true "the message has the PDF attached" grep -q "application/pdf" "$TMP/work/demo.eml"
	test_true "the message carries the verdict the README gate wrote (not \"not run\")" \
		grep -q "^Subject: amdahl report: cpu-strong-scaling, gate: INSUFFICIENT DATA" "$TMP/work/demo.eml"
	test_eq 1 "$(json_get "$TMP/work/stats.json" "d[\"schema_version\"]")"
'
# What the text says the bundled sweep's outputs print (its intervals'
# levels, the gate's ratio) is what they print: the README said "the
# median over repeats with a bootstrap 95% interval" after medians came
# to carry their own level, "(75%)" with 3 runs.
test_expect_success PYTHON 'the README'\''s words on stats and the gate match their output' '
	readme=$(tr "\n" " " <"$README" | tr -s " ") &&
	(cd "$TMP/work" && "$AMDAHL" --store demo.db stats) >"$TMP/stats.txt" &&
	test_not_contains "with a bootstrap 95% interval" "$readme" &&
	test_contains "\"(75%)\" with 3 runs" "$readme" &&
	test_true "stats prints (75%) on a 3-run median" grep -Eq "^1 +3 .*\] \(75%\)" "$TMP/stats.txt" &&
	test_contains "\"(89%)\" with 3 runs a side" "$readme" &&
	test_true "stats prints (89%) on a 3-against-3 speedup" grep -Eq "^2 +3 .*\] \(89%\) +[0-9]+%" "$TMP/stats.txt" &&
	(cd "$TMP/work" && "$AMDAHL" --store demo.db gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json >"$TMP/g.json"
	 test $? -eq 3) && # insufficient data without --fallback ci
	r=$(json_get "$TMP/g.json" "\"%.2f\" % [r[\"ratio\"] for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\" and r[\"n\"] == 8][0]") &&
	test_contains "finds FSDP ${r}× slower at n = 8" "$readme"
'
test_expect_success 'every command the README runs is in the command table' '
	cmds=$("$AMDAHL" --help | sed -n "/^commands:/,/^\$/p" | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p")
	for c in $(sed -n "s/^amdahl \(--store [^ ]* \)\{0,1\}\([a-z]*\).*/\2/p" "$TMP/lines" | sort -u); do
		test_true "$c is a command" grep -qx "$c" <<<"$cmds"
	done
'
test_expect_success 'every file the README points to exists' '
	for f in $(grep -oE "(docs/[a-z/._-]+\.(md|json)|LICENSE|CHANGES\.md|action\.yml)" "$README" | sort -u); do
		test_path_exists "$AMDAHL_ROOT/$f"
	done
'

test_done
