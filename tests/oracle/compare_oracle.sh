# compare_oracle.sh — sourced by the e2e scripts that check `stats --json`
# against tests/oracle/stats_oracle.py (stats.sh, stats_long_run.sh);
# needs $COMPARE (compare_stats.py), $PY and $TMP from tests/test-lib.sh.
#
# compare_oracle AMDAHL_JSON ORACLE_JSON — every check compare_stats.py
# makes ("ok - …" / "not ok - …" lines) is one assertion here; its "#"
# lines (the differences) are shown under a failing one.
compare_oracle() {
	local line n=0
	"$PY" "$COMPARE" "$1" "$2" >"$TMP/compare.out"
	while IFS= read -r line; do
		case "$line" in
		"ok - "* | "not ok - "*)
			n=$((n + 1))
			test_eq "ok - ${line#*ok - }" "$line"
			;;
		"#"*) echo "$line" >&2 ;;
		esac
	done <"$TMP/compare.out"
	test_true "compare_stats.py made checks ($n)" [ "$n" -gt 0 ]
}
