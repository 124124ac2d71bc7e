#!/bin/bash
# trace_chunks.sh — traceEvents parsed in pieces on several threads
# (lib/ingest/trace/trace_par.h) gives exactly the store one thread gives:
# every trace of testdata/ and of the public samples ingested with
# AMDAHL_TRACE_WORKERS=1 and with 2 workers cutting the array into pieces
# of 1 byte (each event its own piece), 700 bytes and 64 KiB, with and
# without --events; the stores' dumps are equal but for ingest times.
# Bad traces are refused with the same one line either way (the parallel
# path reads a refused file again on one thread).
test_description='parallel trace parse: the same rows and errors as one thread'
. "$(dirname "$0")/../test-lib.sh"

TRACES="$TMP/traces.txt"
# dump STORE — the store's rows, ingest times blanked (on ClickHouse,
# of the copy `amdahl pull` makes of it: store_file)
dump() {
	local f
	f=$(store_file "$1") && [ -f "$f" ] || return 1
	sqlite3 "$f" .dump | sed -e '/^INSERT INTO schema_version /d' \
		-e "/^INSERT INTO source VALUES/s/,[0-9]*);\$/,T);/"
}
# ingest_with WORKERS PIECE STORE [OPTIONS] — every trace into STORE
ingest_with() {
	local w=$1 p=$2 db=$3; shift 3
	AMDAHL_TRACE_WORKERS=$w AMDAHL_TRACE_PIECE=$p xargs -a "$TRACES" -d '\n' \
		"$AMDAHL" --store "$db" ingest -q --format torch-trace "$@" 2>>"$TMP/warn.txt"
}

test_expect_success 'setup: the traces' '
	find "$DATA" -name "*.pt.trace.json.gz" -not -path "*fuzz-regressions*" | sort | head -12 >"$TRACES" &&
	test -s "$TRACES"
'
test_expect_success SHARED 'setup: the public traces' '
	find "$PUBLIC/traces" "$PUBLIC/memtraces" -name "*.json.gz" | sort >>"$TRACES"
'
test_expect_success SQLITE3 'one thread: the reference store' '
	test_status 0 ingest_with 1 0 "$TMP/one.db" &&
	test_status 0 ingest_with 1 0 "$TMP/one-ev.db" --events &&
	dump "$TMP/one.db" >"$TMP/one.sql" && dump "$TMP/one-ev.db" >"$TMP/one-ev.sql" &&
	test_true "the reference holds traces" grep -q "^INSERT INTO trace VALUES" "$TMP/one.sql"
'
for piece in 1 700 65536; do
test_expect_success SQLITE3 "two workers, pieces of $piece bytes: the same rows" '
	rm -f "$TMP/two.db" "$TMP/two-ev.db" &&
	test_status 0 ingest_with 2 '"$piece"' "$TMP/two.db" &&
	test_status 0 ingest_with 2 '"$piece"' "$TMP/two-ev.db" --events &&
	dump "$TMP/two.db" >"$TMP/two.sql" && dump "$TMP/two-ev.db" >"$TMP/two-ev.sql" &&
	test_true "rows equal" cmp -s "$TMP/one.sql" "$TMP/two.sql" &&
	test_true "rows equal with --events" cmp -s "$TMP/one-ev.sql" "$TMP/two-ev.sql"
'
done

# bad FILE — FILE (JSON text) gzipped into $TMP/bad/
bad() { mkdir -p "$TMP/bad" && gzip -c >"$TMP/bad/$1.pt.trace.json.gz"; }
EV='{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":2}'
test_expect_success 'setup: bad traces' '
	{ printf "{\"schemaVersion\":1,\"traceEvents\":["; for i in $(seq 200); do printf "%s," "$EV"; done
	  printf "{\"ph\":\"X\",\"ts\":\"x\"}]}"; } | bad ts-not-number &&
	{ printf "{\"schemaVersion\":1,\"traceEvents\":[%s,%s,]}" "$EV" "$EV"; } | bad trailing-comma &&
	{ printf "{\"schemaVersion\":1,\"traceEvents\":[%s, ,%s]}" "$EV" "$EV"; } | bad empty-element &&
	{ printf "{\"schemaVersion\":1,\"traceEvents\":[%s,%s]" "$EV" "$EV"; } | bad unclosed &&
	{ printf "{\"schemaVersion\":1,\"traceEvents\":[%s,%s]}}" "$EV" "$EV"; } | bad trailing-brace &&
	{ printf "{\"traceEvents\":[%s]}" "{\"ph\":\"X\",\"cat\":\"x\",\"name\":\"y\",\"ts\":1}"; } | bad not-kineto &&
	{ printf "{\"schemaVersion\":1,\"traceEvents\":[%s,%s]}" "$EV" "$EV" | gzip -c | head -c 40; } \
		>"$TMP/bad/truncated.pt.trace.json.gz" &&
	cp "$DATA"/fuzz-regressions/format-torch-trace/* "$TMP/bad/"
'
test_expect_success 'every bad trace: the same exit and message on two workers as on one' '
	n=0
	for f in "$TMP"/bad/*; do
		for p in 1 64; do
			AMDAHL_TRACE_WORKERS=1 "$AMDAHL" --store "$TMP/bad1.db" ingest -q --format torch-trace "$f" 2>"$TMP/e1"
			r1=$?
			AMDAHL_TRACE_WORKERS=2 AMDAHL_TRACE_PIECE=$p "$AMDAHL" --store "$TMP/bad2.db" ingest -q \
				--format torch-trace "$f" 2>"$TMP/e2"
			r2=$?
			test_eq "$r1" "$r2"
			test_true "$(basename "$f"): same message" cmp -s "$TMP/e1" "$TMP/e2" || cat "$TMP/e1" "$TMP/e2" >&2
			n=$((n + 1))
		done
	done
	test_eq 22 "$n"
'
# the byte is counted in the whole file, not in a piece: just past "x"
test_expect_success 'a bad time in the 201st event: the byte named is the whole file'\''s' '
	test_status 2 env AMDAHL_TRACE_WORKERS=2 AMDAHL_TRACE_PIECE=64 "$AMDAHL" --store "$TMP/bad2.db" \
		ingest --format torch-trace "$TMP/bad/ts-not-number.pt.trace.json.gz" &&
	at=$(zcat "$TMP/bad/ts-not-number.pt.trace.json.gz" | grep -bo "\"x\"" | cut -d: -f1) &&
	test_contains "byte $((at + 3)): \"ts\" is not a number of microseconds" "$ERR"
'
test_done
