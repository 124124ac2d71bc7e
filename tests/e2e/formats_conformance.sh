# formats_conformance.sh — the conformance kit of the formats table: every
# format `amdahl ingest --formats` lists (the rows of lib/ingest/formats.c)
# goes through the same cases, so a new row without its fixture fails here.
#   - its fixture, tests/fixtures/formats/NAME/input (a file, or a
#     directory for a directory unit), is detected as NAME by content
#     under that neutral name, and ingested;
#   - the fixture cut short (every file of it at half its bytes) and a
#     wrong input (PNG bytes in its place), read as NAME (--format), each
#     exit 2 with exactly one error line naming the file and a position
#     (line, byte or record N), and leave the store as it was — but a
#     TensorBoard file cut short keeps its complete records (a killed
#     job's file) and says where it was cut;
#   - it has a fuzz target: a line of tests/fuzz/formats.txt whose seeds
#     exist, or a target of its own, tests/fuzz/fuzz_NAME.c;
#   - it has a line of what it reads in the --formats listing;
#   - the engine's parse on a thread of its own (every fact through the
#     queue, lib/ingest/queued_sink.c) stores what the parse on one thread
#     (AMDAHL_OVERLAP=0) stores.
# Every fixture directory names a format of the table.
test_description='every row of the formats table: detection, a truncated and a wrong input, fuzzing, the listing'
. "$(dirname "$0")/../test-lib.sh"

FIX=$AMDAHL_ROOT/tests/fixtures/formats
S=$TMP/store.db
"$AMDAHL" ingest --formats >"$TMP/formats.txt" 2>&1
FORMATS=$(awk '{print $1}' "$TMP/formats.txt")

# cut_short SRC DST: DST a copy of SRC (file or directory) with every
# file at half its bytes
cut_short() {
	local f size
	rm -rf "$2"
	cp -r "$1" "$2" || return 1
	find "$2" -type f | while read -r f; do
		size=$(stat -c %s "$f")
		head -c $((size / 2)) "$f" >"$f.cut" && mv "$f.cut" "$f"
	done
}
# wrong_input SRC DST: DST in SRC's shape (a file, or a directory of the
# same files) holding a PNG image's first bytes instead
wrong_input() {
	local f
	rm -rf "$2"
	if [ -d "$1" ]; then
		cp -r "$1" "$2" || return 1
		find "$2" -type f | while read -r f; do printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1' >"$f"; done
	else
		printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1' >"$2"
	fi
}
# refused NAME PATH: PATH read as NAME into $S exits 2 with one error
# line naming PATH (or a file in it) and a position; $S is unchanged
refused() {
	local before
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest --format "$1" "$2"
	test_eq 1 "$(printf '%s\n' "$ERR" | grep -c .)"
	test_contains "$2" "$ERR"
	test_true "a position (line, byte or record N) in: $ERR" \
		grep -qE '(line|byte|record) [0-9]+' "$TMP/err"
	test_eq "$before" "$(store_digest "$S")"
}
# timeless STORE: STORE's dump with the times of ingest zeroed (a copy)
timeless() {
	cp "$(_test_store_file "$1")" "$1.copy" &&
	sqlite3 "$1.copy" "UPDATE source SET ingested_at = 0; UPDATE schema_version SET applied_at = 0" &&
	sqlite3 "$1.copy" .dump
}
# fuzzed NAME: NAME has a fuzz target with seeds
fuzzed() {
	local args seeds
	if [ -f "$AMDAHL_ROOT/tests/fuzz/fuzz_$(printf '%s' "$1" | tr - _).c" ]; then
		return 0
	fi
	args=$(awk -v n="$1" '$1 == n { $1 = ""; print }' "$AMDAHL_ROOT/tests/fuzz/formats.txt")
	test_true "a line for $1 in tests/fuzz/formats.txt" test -n "$args" || return 1
	seeds=$(cd "$AMDAHL_ROOT" && eval "find testdata $args -type f" | head -1)
	test_true "seed files for $1 (find testdata $args)" test -n "$seeds"
}

test_expect_success 'setup: the table lists formats; a store holding one unit' '
	test_true "formats listed" test "$(printf "%s\n" "$FORMATS" | grep -c .)" -ge 10 &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$DATA/mllog/result_1.txt"
'

test_expect_success 'every format has a fixture, every fixture a format' '
	test_eq "$(printf "%s\n" $FORMATS | sort)" "$(ls "$FIX" | sort)"
'

for n in $FORMATS; do
	test_expect_success SQLITE3 "$n: its fixture detected by content under a neutral name" '
		mkdir -p "$TMP/det/'"$n"'" && rm -rf "$TMP/det/'"$n"'/input" &&
		cp -r "$FIX/'"$n"'/input" "$TMP/det/'"$n"'/input" &&
		test_status 0 "$AMDAHL" --store "$TMP/det-'"$n"'.db" ingest "$TMP/det/'"$n"'/input" &&
		test_eq "'"$n"'" "$(q "$TMP/det-'"$n"'.db" "SELECT group_concat(DISTINCT kind) FROM source")"
	'
	test_expect_success SQLITE3 "$n: parsed on a thread of its own, the store equals one thread's" '
		AMDAHL_OVERLAP=0 "$AMDAHL" --store "$TMP/one-'"$n"'.db" ingest "$TMP/det/'"$n"'/input" \
			>/dev/null 2>&1 &&
		timeless "$TMP/one-'"$n"'.db" >"$TMP/one.dump" &&
		timeless "$TMP/det-'"$n"'.db" >"$TMP/two.dump" &&
		test_contains "INSERT INTO source VALUES" "$(cat "$TMP/two.dump")" &&
		test_eq "$(cat "$TMP/one.dump")" "$(cat "$TMP/two.dump")"
	'
	if [ "$n" = tensorboard ]; then # a writer's records end where a job was killed (issue 36)
	test_expect_success SQLITE3 "$n: cut short, its complete records kept, the cut named in the tag tensorboard.incomplete" '
		mkdir -p "$TMP/cut" && cut_short "$FIX/'"$n"'/input" "$TMP/cut/'"$n"'" &&
		test_status 0 "$AMDAHL" --store "$TMP/torn.db" ingest --format '"$n"' "$TMP/cut/'"$n"'" &&
		test_contains "is cut short" "$(q "$TMP/torn.db" "SELECT t.value FROM tag t JOIN dict d ON d.id=t.key_id WHERE d.s='"'"'tensorboard.incomplete'"'"'")"
	'
	else
	test_expect_success SQLITE3 "$n: cut short, one error line with a position, store unchanged" '
		mkdir -p "$TMP/cut" && cut_short "$FIX/'"$n"'/input" "$TMP/cut/'"$n"'" &&
		refused "'"$n"'" "$TMP/cut/'"$n"'"
	'
	fi
	test_expect_success SQLITE3 "$n: a wrong input, one error line with a position, store unchanged" '
		mkdir -p "$TMP/wrong" && wrong_input "$FIX/'"$n"'/input" "$TMP/wrong/'"$n"'" &&
		refused "'"$n"'" "$TMP/wrong/'"$n"'"
	'
	test_expect_success "$n: a fuzz target with seeds" '
		fuzzed "'"$n"'"
	'
	test_expect_success "$n: a line of what it reads in ingest --formats" '
		test_true "a description for '"$n"'" \
			grep -qE "^'"$n"' +[^ ]" "$TMP/formats.txt"
	'
done

test_done
