# report_history.sh — `report build --history METRIC --by KEY`: the
# history page of the report, on the 24-commit histories history.sh
# makes from the bundled CPU sweep's real ddp n=8 runs
# (tests/lib/mlruns_groups.py): "nightly" has every epoch time ×1.20 from
# c12 on, "aa" none. The page, the findings, summary.md/html and
# report.json must say the change starts at c12 with the numbers
# tests/oracle/history_oracle.py (SciPy) computes, say no change for the
# A/A history, and carry the chart with the change marked.
test_description='report build --history: the history page, findings, summaries, report.json'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/histories.sh"

ORACLE="$AMDAHL_ROOT/tests/oracle/history_oracle.py"

test_expect_success SCIPY 'setup: a history with a slowdown from c12 and an A/A history' '
	history_mlruns "$AMDAHL_ROOT" "$TMP/mlruns" &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns" &&
	"$PY" "$ORACLE" "$TMP/mlruns/6" tag.git_commit 12 >"$TMP/oracle.json"
'

test_expect_success SCIPY 'report build --history: one change point, at c12, in report.json' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly \
		--history epoch_time_s --by tag.git_commit -o "$TMP/rep"
	J="$TMP/rep/report.json"
	test_eq "[\"c12\"]" "$(json_get "$J" "jdump([c[\"group\"] for c in d[\"history\"][\"change_points\"]])")"
	test_eq "epoch_time_s tag.git_commit start 24 worse" "$(json_get "$J" "(lambda h: \"%s %s %s %d %s\" % (h[\"metric\"], h[\"by\"], h[\"order\"], len(h[\"groups\"]), h[\"change_points\"][0][\"direction\"]))(d[\"history\"])")"
'

test_expect_success SCIPY 'the medians before and after, ratio and divergence equal the oracle'"'"'s; p is the search'"'"'s permutation p' '
	J="$TMP/rep/report.json"
	for f in before after; do
		test_near "$(json_get "$TMP/oracle.json" "d[\"$f\"]")" \
			"$(json_get "$J" "d[\"history\"][\"change_points\"][0][\"$f\"][\"median\"]")" 1e-9
	done
	test_near "$(json_get "$TMP/oracle.json" "d[\"ratio\"]")" \
		"$(json_get "$J" "d[\"history\"][\"change_points\"][0][\"ratio\"]")" 1e-9
	test_near "$(json_get "$TMP/oracle.json" "d[\"divergence\"]")" \
		"$(json_get "$J" "d[\"history\"][\"change_points\"][0][\"divergence\"]")" 1e-9
	test_eq True "$(json_get "$J" "(lambda c: c[\"p\"] == c[\"p_permutation\"])(d[\"history\"][\"change_points\"][0])")"
	test_eq 0 "$(json_get "$J" "sum(abs(a - b[2]) > 1e-9 for a, b in zip([g[\"median\"] for g in d[\"history\"][\"groups\"]], json.load(open(\"$TMP/oracle.json\"))[\"groups\"]))")"
'

test_expect_success SCIPY 'report.json'"'"'s history is amdahl history --json'"'"'s, with the chart'"'"'s files' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history epoch_time_s --by tag.git_commit --sweep nightly --json
	echo "$OUT" >"$TMP/h.json"
	test_eq "$(json_get "$TMP/h.json" "jdump({k: v for k, v in d.items() if k != \"schema_version\"})")" \
		"$(json_get "$TMP/rep/report.json" "jdump({k: v for k, v in d[\"history\"].items() if k not in (\"png\", \"svg\", \"caption\", \"sentences\")})")"
	test_eq "charts/history.png charts/history.svg" "$(json_get "$TMP/rep/report.json" "d[\"history\"][\"png\"] + \" \" + d[\"history\"][\"svg\"]")"
	test_path_exists "$TMP/rep/charts/history.png"
'

test_expect_success SCIPY 'the finding says where the change starts, the medians, ratio with interval and p' '
	J="$TMP/rep/report.json"
	f=$(json_get "$J" "d[\"findings\"][0]")
	c=$(json_get "$J" "d[\"history\"][\"change_points\"][0]")
	test_contains "History of epoch_time_s by tag.git_commit (24 groups in order of start, c00..c23, ddp n=8): the change starts at c12" "$f"
	test_contains "$(json_get "$TMP/oracle.json" "\"from %.4g (36 runs, c00..c11) to %.4g (36 runs, c12..c23), %.1f%% worse: ratio %.3f\" % (d[\"before\"], d[\"after\"], 100 * (d[\"ratio\"] - 1), d[\"ratio\"])")" "$f"
	test_contains "$(json_get "$J" "(lambda c: \"[%.3f, %.3f], permutation p %.3g (over every split searched).\" % (c[\"ci\"][0], c[\"ci\"][1], c[\"p_permutation\"]))(d[\"history\"][\"change_points\"][0])")" "$f"
	test_eq "$f" "$(json_get "$J" "d[\"history\"][\"sentences\"][0]")"
'

# The SVG holds glyphs, not text: the chart's words are read from the PDF.
test_expect_success SCIPY,PDFTOTEXT 'the chart marks the change at c12 with its ratio' '
	t=$(pdftotext -layout "$TMP/rep/report.pdf" -)
	test_contains "change at c12: ×$(json_get "$TMP/oracle.json" "\"%.3f\" % d[\"ratio\"]")" "$t"
	test_contains "ddp n=8; 1 change point (E-Divisive means, permutation p <= 0.05)" "$t"
	test_true "history.svg is an SVG" grep -q "<svg" "$TMP/rep/charts/history.svg"
'

test_expect_success SCIPY,PDFTOTEXT 'the PDF has the history page: sentence, change table, every group' '
	pdftotext -layout "$TMP/rep/report.pdf" "$TMP/rep.txt"
	t=$(cat "$TMP/rep.txt")
	test_contains "History of epoch_time_s by tag.git_commit" "$t"
	test_contains "1 change point (E-Divisive means, permutation test: 999 shuffles, alpha 0.05, at least 3 groups before a change and 2 after it)" "$(printf "%s" "$t" | tr -s " \n" "  ")"
	test_true "change row" grep -Eq "^c12 +[0-9.]+ \(36, c00\.\.c11\) +[0-9.]+ \(36, c12\.\.c23\) +1\.200 \[.*worse$" "$TMP/rep.txt"
	test_eq 24 "$(grep -Ec "^c[0-9][0-9] +3 +[0-9.]+ +\[" "$TMP/rep.txt")"
	test_true "c12 marked" grep -Eq "^c12 +3 .*<- change" "$TMP/rep.txt"
'

test_expect_success SCIPY 'summary.md and summary.html carry the history section' '
	md=$(cat "$TMP/rep/summary.md")
	test_contains "## History of epoch_time_s by tag.git_commit" "$md"
	test_contains "![History of epoch_time_s by tag.git_commit](charts/history.png)" "$md"
	test_eq 24 "$(grep -c "^| c[0-9][0-9] | 3 |" "$TMP/rep/summary.md")"
	test_true "c12 marked" grep -q "^| c12 | 3 | .* | change |$" "$TMP/rep/summary.md"
	html=$(cat "$TMP/rep/summary.html")
	test_contains "<h2>History of epoch_time_s by tag.git_commit</h2>" "$html"
	test_contains "<img src=\"charts/history.svg\"" "$html"
'

test_expect_success SCIPY,PDFTOTEXT 'the A/A history: no change point, said in a sentence' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build --sweep aa \
		--history epoch_time_s --by tag.git_commit -o "$TMP/aa"
	J="$TMP/aa/report.json"
	test_eq "24 []" "$(json_get "$J" "\"%d %s\" % (len(d[\"history\"][\"groups\"]), jdump(d[\"history\"][\"change_points\"]))")"
	test_contains "no change point (E-Divisive means, permutation test at alpha 0.05); the group medians lie between $(json_get "$J" "\"%.4g and %.4g\" % (min(g[\"median\"] for g in d[\"history\"][\"groups\"]), max(g[\"median\"] for g in d[\"history\"][\"groups\"]))")" \
		"$(json_get "$J" "d[\"findings\"][0]")"
	t=$(pdftotext -layout "$TMP/aa/report.pdf" -)
	test_contains "ddp n=8; 0 change points" "$t"
	test_not_contains "change at" "$t"
'

test_expect_success SCIPY '--history-sweep: the history of other runs than the reported sweep'"'"'s' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build --sweep aa --history epoch_time_s \
		--by tag.git_commit --history-sweep "sweep=nightly" -o "$TMP/other"
	test_eq "aa [\"c12\"]" "$(json_get "$TMP/other/report.json" "d[\"sweep\"] + \" \" + jdump([c[\"group\"] for c in d[\"history\"][\"change_points\"]])")"
'

test_expect_success SCIPY 'with --baseline too: the gate sentence first, the history next' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly --baseline aa \
		--history epoch_time_s --by tag.git_commit -o "$TMP/both"
	J="$TMP/both/report.json"
	test_eq "$(json_get "$J" "d[\"gate\"][\"sentence\"]")" "$(json_get "$J" "d[\"findings\"][0]")"
	test_contains "the change starts at c12" "$(json_get "$J" "d[\"findings\"][1]")"
'

test_expect_success SCIPY 'a build without --history into the same directory removes the chart' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly -o "$TMP/rep"
	test_path_is_missing "$TMP/rep/charts/history.png"
	test_path_is_missing "$TMP/rep/charts/history.svg"
	test_eq False "$(json_get "$TMP/rep/report.json" "d[\"history\"] is not None")"
'

test_expect_success SCIPY 'usage errors: --by without --history, --order alone, a bad key' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly --by tag.git_commit -o "$TMP/e"
	test_contains "--history METRIC and --by KEY go together" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly --order start -o "$TMP/e"
	test_contains "--order and --history-sweep need --history" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" report build --sweep nightly --history epoch_time_s \
		--by tag.git_comit -o "$TMP/e"
	test_contains "closest: '"'"'git_commit'"'"'" "$ERR"
	test_path_is_missing "$TMP/e/report.pdf"
'

test_done
