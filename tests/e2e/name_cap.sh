#!/bin/bash
# name_cap.sh — absurd names (issue 20 item 11). A name longer than 4096
# bytes (an op, a frame, a run, a sweep) is stored as its prefix, "…" and
# 16 hex digits of its SHA-256 (lib/core/name_cap.h), checked against
# tests/oracle/name_cap.py (python's hashlib); distinct long names stay
# distinct, equal ones share one entry. What the parsers hold is bounded
# too: a trace's JSON string over 1 MiB (a 50 MB op name) and a py-spy
# dump over 2 MiB (100 k frames) or deeper than 4096 frames are refused
# with one line naming the file and the place, the store unchanged, in
# bounded memory; both sides of each limit are tried.
test_description='names capped at 4096 bytes as prefix + hash; absurd names refused in bounded memory'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/ingest.sh" # error_lines

NC="$AMDAHL_ROOT/tests/oracle/name_cap.py"
CPU="$DATA/cpu-strong-scaling/mlruns"
TRACES="$CPU/4/23bd7a6253644b8ca7b3179690df1c53/artifacts/traces"
DUMP="$DATA/pyspy/calendarbot.dump.json"
MAX_RSS_MB=60
ldd "$AMDAHL" 2>/dev/null | grep -q libasan && MAX_RSS_MB=400 asan=1 || asan=0
S="$TMP/s.db"


test_expect_success PYTHON 'the cap itself: 4096 bytes stay, 4097 become prefix + … + hash (python oracle)' '
	short=$("$PY" "$NC" cap "$(printf "%4096s" | tr " " q)") &&
	test_eq 4096 "${#short}" &&
	long=$("$PY" "$NC" cap "$(printf "%4097s" | tr " " q)") &&
	test_eq "$(printf "%4096s" | tr " " q | head -c 4077)…$(printf "%4097s" | tr " " q | sha256sum | cut -c1-16)" "$long"
'

test_expect_success PYTHON,SQLITE3 'two ranks whose op names are 500-600 kB: stored capped, distinct stay distinct, equal share one entry' '
	r=0 &&
	for t in "$TRACES"/rank*.pt.trace.json.gz; do
		"$PY" "$NC" trace "$t" "$TMP/long$r.pt.trace.json.gz" && r=$((r + 1)) || return 1
	done &&
	test_eq 2 "$r" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/long0.pt.trace.json.gz" "$TMP/long1.pt.trace.json.gz" &&
	test_eq "" "$("$PY" "$NC" check "$S" ops)" &&
	test_eq 4096 "$(q "$S" "SELECT max(length(CAST(s AS BLOB))) FROM dict")"
'

test_expect_success PYTHON,SQLITE3 'a run, its strategy and a sweep named with 5000 bytes: stored capped' '
	cp -r "$CPU" "$TMP/mlruns" &&
	tag=$(ls "$TMP"/mlruns/4/*/tags/mlflow.runName | head -1) &&
	"$PY" "$NC" long run >"$tag" &&
	sed -i "s/^run_name: .*/run_name: $("$PY" "$NC" long run)/" "$(dirname "$(dirname "$tag")")/meta.yaml" &&
	"$PY" "$NC" long strategy >"$(dirname "$(dirname "$tag")")/params/strategy" &&
	sed -i "s/^name: .*/name: $("$PY" "$NC" long sweep)/" "$TMP/mlruns/4/meta.yaml" &&
	test_status 0 "$AMDAHL" --store "$TMP/runs.db" ingest "$TMP/mlruns" &&
	test_eq "" "$("$PY" "$NC" check "$TMP/runs.db" run sweep)" &&
	test_status 0 "$AMDAHL" --store "$TMP/runs.db" stats --json
'

test_expect_success PYTHON,SQLITE3 'a 50 MB op name: refused at 1 MiB naming file and byte, store unchanged, bounded memory' '
	at=$("$PY" "$NC" bigtrace "$TRACES/$(ls "$TRACES" | head -1)" "$TMP/big50.pt.trace.json.gz" 50000000) &&
	before=$(store_digest "$S") &&
	bounded "big50.pt.trace.json.gz: byte $at: a JSON string longer than 1 MiB" \
		--store "$S" ingest "$TMP/big50.pt.trace.json.gz" &&
	test_eq "$before" "$(store_digest "$S")"
'

test_expect_success PYTHON,SQLITE3 'both sides of 1 MiB: a name one byte under is stored capped, one byte over is refused' '
	t="$TRACES/$(ls "$TRACES" | head -1)" &&
	"$PY" "$NC" bigtrace "$t" "$TMP/under.pt.trace.json.gz" 1048576 >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/under.db" ingest "$TMP/under.pt.trace.json.gz" &&
	test_eq "$("$PY" "$NC" capa 1048576)" \
		"$(q "$TMP/under.db" "SELECT s FROM dict WHERE length(s) > 1000")" &&
	at=$("$PY" "$NC" bigtrace "$t" "$TMP/over.pt.trace.json.gz" 1048577) &&
	test_status 2 "$AMDAHL" --store "$TMP/under.db" ingest "$TMP/over.pt.trace.json.gz" &&
	test_contains "over.pt.trace.json.gz: byte $at: a JSON string longer than 1 MiB" "$ERR"
'

test_expect_success PYTHON,SQLITE3 'py-spy dump with 100 k frames (text and --json): refused by size, store unchanged, bounded memory' '
	"$PY" "$NC" dump "$DUMP" "$TMP/deep.txt" 100000 txt >/dev/null &&
	"$PY" "$NC" dump "$DUMP" "$TMP/deep.json" 100000 json &&
	before=$(store_digest "$S") &&
	bounded "deep.txt: larger than the limit of 2097152 bytes" --store "$S" ingest "$TMP/deep.txt" &&
	bounded "deep.json: larger than the limit of 2097152 bytes" --store "$S" ingest "$TMP/deep.json" &&
	test_eq "$before" "$(store_digest "$S")"
'

test_expect_success PYTHON,SQLITE3 'both sides of 4096 frames: 4097 deep refused naming the line (text) or frame (json); 4096 stored whole, its long frame name capped' '
	line=$("$PY" "$NC" dump "$DUMP" "$TMP/d4097.txt" 4097 txt) &&
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/d4097.txt" &&
	test_contains "d4097.txt: line $line: a stack deeper than 4096 frames" "$ERR" &&
	"$PY" "$NC" dump "$DUMP" "$TMP/d4097.json" 4097 json &&
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/d4097.json" &&
	test_contains "d4097.json: [0].frames[4096]: a stack deeper than 4096 frames" "$ERR" &&
	test_eq "$before" "$(store_digest "$S")" &&
	"$PY" "$NC" dump "$DUMP" "$TMP/d4096.json" 4096 json &&
	test_status 0 "$AMDAHL" --store "$TMP/dump.db" ingest "$TMP/d4096.json" &&
	test_eq "" "$("$PY" "$NC" check "$TMP/dump.db" frame)"
'

test_done
