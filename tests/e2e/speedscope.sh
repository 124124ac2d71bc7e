#!/bin/bash
# The streaming speedscope reader: the same stacks whatever the order of
# the keys (py-spy writes profiles before shared.frames; other exporters
# may not), with repeated keys, indented or gzipped; bad input fails with
# one line naming the file and the place (the sample, the weight, the
# byte), exit 2, the store unchanged. The stores are compared with the one
# read from the file as py-spy wrote it, whose numbers pyspy.sh checks
# against the Python oracle.
test_description='speedscope: key orders, repeated keys, bad input'
. "$(dirname "$0")/../test-lib.sh"
SRC="$DATA/pyspy/idle-0.4.1-1000hz.speedscope.json"
V="$AMDAHL_ROOT/tests/lib/speedscope_orders.py"
S="$TMP/s.db"

# stacks STORE — the stack tables and the regions, as text
stacks() {
	local t
	for t in dict frame stack_node stack_sample region; do
		q "$1" "SELECT * FROM $t ORDER BY 1"
	done
}
# variant KIND — writes $TMP/KIND/p.speedscope.json
variant() { mkdir -p "$TMP/$1" && "$PY" "$V" "$1" "$SRC" "$TMP/$1/p.speedscope.json"; }
# same_as_py_spy KIND — the variant read alone stores what the original does
same_as_py_spy() {
	test_status 0 "$AMDAHL" --store "$TMP/$1.db" ingest "$TMP/$1/p.speedscope.json" &&
		test_eq "$(stacks "$TMP/orig.db")" "$(stacks "$TMP/$1.db")"
}

test_expect_success SQLITE3,PYTHON 'setup: the file as py-spy wrote it, and its variants' '
	mkdir -p "$TMP/orig" && cp "$SRC" "$TMP/orig/p.speedscope.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/orig.db" ingest "$TMP/orig/p.speedscope.json" &&
	test_eq 360 "$(q "$TMP/orig.db" "SELECT sum(samples) FROM stack_sample")" &&
	for k in reversed spaced dup-keys bad-sample bad-weight short no-name deep \
		long-number truncated; do variant $k || return 1; done
'
test_expect_success SQLITE3,PYTHON 'every key reversed (shared first, weights before samples): same stacks' '
	f="$TMP/reversed/p.speedscope.json" &&
	at_shared=$(grep -bo "\"shared\"" "$f" | head -1 | cut -d: -f1) &&
	at_profiles=$(grep -bo "\"profiles\"" "$f" | head -1 | cut -d: -f1) &&
	test_true "shared before profiles" [ "$at_shared" -lt "$at_profiles" ] &&
	same_as_py_spy reversed
'
test_expect_success SQLITE3,PYTHON 'indented with newlines: same stacks' '
	same_as_py_spy spaced
'
test_expect_success SQLITE3,PYTHON 'repeated keys: the first value counts, as before' '
	same_as_py_spy dup-keys
'
test_expect_success SQLITE3,PYTHON 'gzipped: same stacks' '
	mkdir -p "$TMP/gz" && gzip -c "$SRC" >"$TMP/gz/p.speedscope.json" &&
	same_as_py_spy gz
'
test_expect_success SQLITE3,PYTHON 'setup: a store holding the original' '
	store_copy "$TMP/orig.db" "$S"
'
test_expect_success SQLITE3,PYTHON 'a sample that is not an array: its place, exit 2, store unchanged' '
	test_bad_ingest "$S" "$TMP/bad-sample/p.speedscope.json" \
		"bad-sample/p.speedscope.json: profiles[0].samples[3]: not an array of frame indices"
'
test_expect_success SQLITE3,PYTHON 'a weight that is a string: its place, exit 2, store unchanged' '
	test_bad_ingest "$S" "$TMP/bad-weight/p.speedscope.json" \
		"p.speedscope.json: profiles[0].weights[2]: not a weight"
'
test_expect_success SQLITE3,PYTHON 'fewer weights than samples: exit 2, store unchanged' '
	test_bad_ingest "$S" "$TMP/short/p.speedscope.json" \
		"p.speedscope.json: profiles[0]: samples and weights must be arrays of the same length"
'
test_expect_success SQLITE3,PYTHON 'a frame without a name: exit 2, store unchanged' '
	test_bad_ingest "$S" "$TMP/no-name/p.speedscope.json" \
		"p.speedscope.json: shared.frames[1]: no name"
'
test_expect_success SQLITE3,PYTHON 'a sample 5000 frames deep: exit 2, store unchanged' '
	test_bad_ingest "$S" "$TMP/deep/p.speedscope.json" \
		"p.speedscope.json: profiles[0].samples[0]: a stack deeper than 4096 frames"
'
test_expect_success SQLITE3,PYTHON 'a 2 MiB number: refused at the byte past its first MiB, store unchanged' '
	at=$(grep -bo "\"weights\": \[1" "$TMP/long-number/p.speedscope.json" | head -1 | cut -d: -f1) &&
	test_bad_ingest "$S" "$TMP/long-number/p.speedscope.json" \
		"p.speedscope.json: byte $((at + 12 + (1 << 20))): a JSON number longer than 1 MiB"
'
test_expect_success SQLITE3,PYTHON 'truncated in the middle: invalid JSON at its end byte, store unchanged' '
	size=$(stat -c %s "$TMP/truncated/p.speedscope.json") &&
	test_bad_ingest "$S" "$TMP/truncated/p.speedscope.json" \
		"p.speedscope.json: byte $size: invalid JSON"
'
test_done
