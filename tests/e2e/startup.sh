#!/bin/bash
# startup.sh — an ingest that starts fast (issue 38): the process that
# ingests or prints statistics maps none of the drawing and network
# libraries (cairo, fontconfig, pango, libcurl), as the dynamic loader
# itself reports (LD_DEBUG=libs); the commands that draw run in
# amdahl-report, found beside amdahl (the build tree) or in
# ../libexec/amdahl/ (make install), with the same arguments and exit
# code; libcurl is loaded when a ClickHouse store or the mail needs it,
# and a libcurl that cannot be loaded is one error line, exit 2.
test_description='ingest and stats load no cairo, fontconfig, pango or curl; report and mail still work'
. "$(dirname "$0")/../test-lib.sh"

BUILD=$(cd "$(dirname "${AMDAHL_CH_REAL:-$AMDAHL}")" && pwd)
TRACE=$(ls -S "$DATA"/gpu-batch-sweep/mlruns/*/*/artifacts/traces/*.pt.trace.json.gz | head -1)
HEAVY='libcairo|libfontconfig|libpango|libcurl'
# loaded LOG — the libraries the dynamic loader initialised, one a line
loaded() { sed -n 's/.*calling init: //p' "$1" | sort -u; }

# The first two cases are about a SQLite store (SQLITE_STORE): a process
# with a ClickHouse store needs libcurl, as case 4 checks.
test_expect_success SQLITE_STORE 'ingest of a trace maps none of cairo, fontconfig, pango, curl' '
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$TMP/ingest" "$AMDAHL" --store "$TMP/s.db" ingest -q \
		--format torch-trace "$TRACE" &&
	loaded "$TMP/ingest".* >"$TMP/ingest.libs" &&
	test_true "the loader reported its libraries" grep -q "libsqlite3" "$TMP/ingest.libs" &&
	test_eq "" "$(grep -E "$HEAVY" "$TMP/ingest.libs")"
'
test_expect_success 'setup: the CPU sweep in m.db' '
	"$AMDAHL" --store "$TMP/m.db" ingest -q "$DATA/cpu-strong-scaling/mlruns"
'
test_expect_success SQLITE_STORE 'ingest of MLflow runs and stats map none of them either' '
	rm -f "$TMP/m.db" && "$AMDAHL" --store "$TMP/m.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$TMP/stats" "$AMDAHL" --store "$TMP/m.db" stats >"$TMP/stats.txt" &&
	test_contains "speedup" "$(cat "$TMP/stats.txt")" &&
	test_eq "" "$(loaded "$TMP/stats".* | grep -E "$HEAVY")"
'
test_expect_success 'report build runs in amdahl-report, which maps cairo' '
	rm -f "$TMP"/report.* &&
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$TMP/report" "$AMDAHL" --store "$TMP/m.db" report build \
		-o "$TMP/rep" >"$TMP/report.txt" &&
	test_path_exists "$TMP/rep/report.pdf" &&
	test_true "a process of the report mapped cairo" grep -q "libcairo" "$TMP"/report.[0-9]* &&
	test_status 2 "$AMDAHL" --store "$TMP/m.db" report build --sweep cpu-strong-scalin -o "$TMP/r2" &&
	test_contains "amdahl report build: " "$ERR"
'
test_expect_success 'a ClickHouse store loads libcurl; one that cannot be loaded is one line, exit 2' '
	test_status 2 env AMDAHL_LIBCURL="$TMP/no-libcurl.so" "$AMDAHL" \
		--store clickhouse://127.0.0.1:1/db runs &&
	test_eq "amdahl runs: clickhouse://127.0.0.1:1/db: cannot load libcurl ($TMP/no-libcurl.so), which this needs: $TMP/no-libcurl.so: cannot open shared object file: No such file or directory" "$ERR"
'
test_expect_success 'the mail dry run loads libcurl and writes the message' '
	test_status 0 "$AMDAHL" --store "$TMP/m.db" mail --to a@example.org \
		--from b@example.org --dry-run "$TMP/msg.eml" "$TMP/rep" &&
	test_true "the message is MIME" grep -q "^Content-Type: multipart" "$TMP/msg.eml"
'
test_expect_success 'amdahl without amdahl-report beside it or in ../libexec/amdahl: exit 2, where it looked' '
	# the binary itself (on ClickHouse $AMDAHL is a wrapper script) and the store by its name
	BIN=${AMDAHL_CH_REAL:-$AMDAHL} &&
	mkdir -p "$TMP/lone" && cp "$BIN" "$TMP/lone/amdahl" &&
	test_status 2 "$TMP/lone/amdahl" --store "$(store_name "$TMP/m.db")" report build -o "$TMP/r3" &&
	test_eq "amdahl report: needs amdahl-report, which is neither beside amdahl ($TMP/lone/) nor in $TMP/lone/../libexec/amdahl/" "$ERR" &&
	test_path_is_missing "$TMP/r3" &&
	mkdir -p "$TMP/pfx/bin" "$TMP/pfx/libexec/amdahl" && cp "$BIN" "$TMP/pfx/bin/amdahl" &&
	cp "$BUILD/amdahl-report" "$TMP/pfx/libexec/amdahl/" &&
	test_status 0 env AMDAHL_TEMPLATES="$AMDAHL_ROOT/templates" "$TMP/pfx/bin/amdahl" --store "$(store_name "$TMP/m.db")" history --help
'
test_done
