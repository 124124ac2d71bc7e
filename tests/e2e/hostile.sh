#!/bin/bash
# hostile.sh — what hostile and careless use must not break (issue 20):
# outputs written atomically and never through a planted symbolic link,
# someone else's SQLite file refused as a store, read-only stores, and
# the other guarantees of README's reliability section.
test_description='hostile and careless use: outputs, foreign and read-only stores'
. "$(dirname "$0")/../test-lib.sh"

test_expect_success 'setup: ingest cpu-strong-scaling' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" >/dev/null
'

# ---- 1. outputs: atomic, never through a symbolic link ----
test_expect_success 'a symlink planted as report.pdf is refused and its target untouched' '
	mkdir -p "$TMP/out1" &&
	echo precious >"$TMP/victim" &&
	ln -s "$TMP/victim" "$TMP/out1/report.pdf" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/out1" &&
	test_contains "report.pdf: is a symbolic link" "$ERR" &&
	test_eq precious "$(cat "$TMP/victim")" &&
	test_true "the link is left as it was" test -L "$TMP/out1/report.pdf"
'
test_expect_success 'a dangling symlink in the output directory creates no file outside it' '
	mkdir -p "$TMP/out2" &&
	ln -s "$TMP/created-outside" "$TMP/out2/report.json" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/out2" &&
	test_contains "report.json: is a symbolic link" "$ERR" &&
	test_path_is_missing "$TMP/created-outside"
'
test_expect_success 'a symlinked charts/ directory is not followed' '
	mkdir -p "$TMP/out3" "$TMP/elsewhere" &&
	echo keep >"$TMP/elsewhere/speedup.png" &&
	ln -s "$TMP/elsewhere" "$TMP/out3/charts" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/out3" &&
	test_contains "charts" "$ERR" &&
	test_eq keep "$(cat "$TMP/elsewhere/speedup.png")" &&
	test_eq "speedup.png" "$(ls "$TMP/elsewhere")"
'
test_expect_success 'a report directory holds no temporary files after a build' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/out4" &&
	test_eq "" "$(find "$TMP/out4" -name ".*" -type f)" &&
	test_true "report.pdf written" test -s "$TMP/out4/report.pdf" &&
	test_true "a chart written" test -s "$TMP/out4/charts/speedup.png"
'
test_expect_success 'gate --junit through a planted symlink is refused' '
	ln -s "$TMP/victim" "$TMP/junit.xml" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp \
		--candidate cpu-strong-scaling:fsdp --junit "$TMP/junit.xml" &&
	test_contains "junit.xml: is a symbolic link" "$ERR" &&
	test_eq precious "$(cat "$TMP/victim")"
'

test_done
