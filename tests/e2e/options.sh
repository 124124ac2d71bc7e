# options.sh — a wrong option, for every command of the command table
# (the list `amdahl --help` prints, so a new command is covered the day
# it is added): exit 2, one line "amdahl CMD: unknown option '--hepl';
# closest: '--help'" then the command's usage lines exactly as its --help
# begins, nothing on stdout, no store created, and never getopt's own
# "unrecognized option" line. Then each kind of wrong option once: the
# closest name, an ambiguous abbreviation, a value missing, a value
# given to an option that takes none, an unknown short option.
test_description='an unknown option prints the usage line and the closest option, every command'
. "$(dirname "$0")/../test-lib.sh"

# The commands, from the table as `amdahl --help` lists it; a command
# with subcommands (report build, trace show, pyspy top) is given its
# first, the word after the name on its usage line.
commands() {
	"$AMDAHL" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}
form() { # CMD: "CMD" or "CMD SUB"
	local sub
	sub=$("$AMDAHL" "$1" --help | sed -n '1s/^usage: amdahl [a-z]* \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p')
	echo "$1${sub:+ $sub}"
}

test_expect_success 'the table has every command (at least the 19 of this writing)' '
	test_true "19 or more commands" test "$(commands | wc -l)" -ge 19
	test_contains "explain" "$(commands)"
'
test_expect_success 'every command: --hepl is an error naming --help, then its usage lines' '
	mkdir -p "$TMP/cwd" && cd "$TMP/cwd" || return 1
	n=0
	for c in $(commands); do
		f=$(form "$c")
		test_status 2 "$AMDAHL" --store "$TMP/cwd/s.db" $f --hepl
		test_eq "amdahl $c: unknown option '\''--hepl'\''; closest: '\''--help'\''" \
			"$(printf "%s\n" "$ERR" | head -1 | sed "s/\(closest: '\''--help'\''\).*/\1/")"
		want=$("$AMDAHL" "$c" --help | sed -n "/^usage:/,/^\$/p" | sed "/^\$/d")
		test_eq "$want" "$(printf "%s\n" "$ERR" | sed "1d;\$d")"
		test_eq "see '\''amdahl $c --help'\''" "$(printf "%s\n" "$ERR" | tail -1)"
		test_not_contains "unrecognized option" "$ERR"
		test_eq "" "$OUT"
		test_path_is_missing "$TMP/cwd/s.db"
		n=$((n + 1))
	done
	cd "$TMP" && test_true "commands tried" test "$n" -ge 19
'
test_expect_success 'the closest option, not just --help: stats --metrik' '
	test_status 2 "$AMDAHL" stats --metrik epoch_time_s
	test_contains "amdahl stats: unknown option '\''--metrik'\''; closest: '\''--metric'\''" "$ERR"
	test_contains "usage: amdahl stats [--sweep S|SELECTOR]" "$ERR"
'
test_expect_success 'an option too far from any: no closest, still the usage line' '
	test_status 2 "$AMDAHL" runs --zzzzzzzzzzzz
	test_eq "amdahl runs: unknown option '\''--zzzzzzzzzzzz'\''" "$(printf "%s\n" "$ERR" | head -1)"
	test_contains "usage: amdahl runs" "$ERR"
'
test_expect_success 'an ambiguous abbreviation names the options it begins' '
	test_status 2 "$AMDAHL" stats --m epoch_time_s
	test_contains "amdahl stats: option '\''--m'\'' is ambiguous: --metric, --mad-k" "$ERR"
'
test_expect_success 'a value missing, a value to an option that takes none' '
	test_status 2 "$AMDAHL" gate --baseline
	test_contains "amdahl gate: option '\''--baseline'\'' needs a value" "$ERR"
	test_contains "usage: amdahl gate --baseline" "$ERR"
	test_status 2 "$AMDAHL" runs --json=yes
	test_contains "amdahl runs: option '\''--json'\'' takes no value" "$ERR"
	test_status 2 "$AMDAHL" trace show -n
	test_contains "amdahl trace: option '\''-n'\'' needs a value" "$ERR"
'
test_expect_success 'an unknown short option' '
	test_status 2 "$AMDAHL" regions -x r
	test_eq "amdahl regions: unknown option '\''-x'\''" "$(printf "%s\n" "$ERR" | head -1)"
	test_contains "usage: amdahl regions" "$ERR"
'
test_expect_success 'options still work: an abbreviation, and a QUERY after --' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" runs --jso &&
	test_contains "\"runs\"" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" sql -- "-- a comment
SELECT count(*) FROM run" &&
	test_true "a count" test "$OUT" != ""
'
test_expect_success 'a subcommand that is not one: exit 2 naming it' '
	test_status 2 "$AMDAHL" report nosuch &&
	test_contains "try '\''report build'\''" "$ERR"
'
test_expect_success 'an option where the subcommand goes (report, pyspy): the usage lines' '
	test_status 2 "$AMDAHL" report --nosuch &&
	test_eq "amdahl report: '\''--nosuch'\'' comes before the subcommand; options follow it" \
		"$(printf "%s\n" "$ERR" | head -1)" &&
	test_contains "usage: amdahl report build" "$ERR" &&
	test_status 2 "$AMDAHL" pyspy --self &&
	test_contains "usage: amdahl pyspy top RUN [--self|--total]" "$ERR"
'
test_done
