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

# ---- 2. someone else's SQLite file is not turned into a store ----
test_lazy_prereq USERNS 'unshare -U true'
file_digest() { sha256sum "$1" | cut -c1-64; }

test_expect_success PYTHON 'setup: an mlflow.db from the CPU sweep' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$DATA/cpu-strong-scaling/mlruns" "$TMP/forms" >/dev/null
'
# cases 5-7 and 9-12 are about the file at the store path (another
# program's SQLite file, permissions, a pending -wal): SQLITE_STORE
test_expect_success PYTHON,SQLITE_STORE '--store mlflow.db ingest is refused and leaves the file byte for byte' '
	before=$(file_digest "$TMP/forms/mlflow.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/forms/mlflow.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_contains "an MLflow tracking database, not an amdahl store" "$ERR" &&
	test_contains "did you mean \`amdahl ingest $TMP/forms/mlflow.db\`" "$ERR" &&
	test_eq "$before" "$(file_digest "$TMP/forms/mlflow.db")" &&
	test_path_is_missing "$TMP/forms/mlflow.db-wal"
'
test_expect_success SQLITE3,SQLITE_STORE 'another SQLite database is refused unchanged; an empty file becomes a store' '
	sqlite3 "$TMP/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1)" &&
	before=$(file_digest "$TMP/other.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/other.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_contains "an SQLite database without amdahl" "$ERR" &&
	test_eq "$before" "$(file_digest "$TMP/other.db")" &&
	: >"$TMP/empty.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/empty.db" ingest -q "$DATA/cpu-strong-scaling/mlruns"
'
test_expect_success PYTHON,SQLITE_STORE 'reading mlflow.db as a store says what it is' '
	test_status 2 "$AMDAHL" --store "$TMP/forms/mlflow.db" runs &&
	test_contains "an MLflow tracking database" "$ERR"
'

# ---- 6. a store in a read-only directory is read ----
test_expect_success SQLITE_STORE 'setup: a copy of the store in a directory only root may write' '
	mkdir "$TMP/ro" && cp "$TMP/cpu.db" "$TMP/ro/cpu.db" &&
	"$AMDAHL" --store "$TMP/cpu.db" stats --json >"$TMP/stats-rw.json" &&
	chmod 555 "$TMP/ro" && chmod 444 "$TMP/ro/cpu.db"
'
test_expect_success USERNS,SQLITE_STORE 'runs and stats read a store in a read-only directory (as another user)' '
	unshare -U "$AMDAHL" --store "$TMP/ro/cpu.db" stats --json >"$TMP/stats-ro.json" &&
	test_eq "$(cat "$TMP/stats-rw.json")" "$(cat "$TMP/stats-ro.json")" &&
	unshare -U "$AMDAHL" --store "$TMP/ro/cpu.db" runs >"$TMP/runs-ro" &&
	test_contains "29 runs" "$(cat "$TMP/runs-ro")" &&
	test_eq "cpu.db" "$(ls "$TMP/ro")"
'
test_expect_success USERNS,SQLITE_STORE 'gate --baseline-store and report build read a read-only store' '
	unshare -U "$AMDAHL" --store "$TMP/ro/cpu.db" gate --baseline-store "$TMP/ro/cpu.db" \
		--baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json >"$TMP/gate-ro.json"
	test_true "gate exits 0, 1 or 3, not 2" test $? != 2 &&
	test_eq "epoch_time_s" "$(json_get "$TMP/gate-ro.json" "d[\"metric\"]")" &&
	mkdir -m 777 "$TMP/rep-ro" &&
	test_status 0 unshare -U "$AMDAHL" --store "$TMP/ro/cpu.db" report build -o "$TMP/rep-ro" &&
	test_true "report.pdf written" test -s "$TMP/rep-ro/report.pdf"
'
test_expect_success USERNS,SQLITE_STORE 'a pending write-ahead log in a read-only directory is named, not "not a store"' '
	chmod 755 "$TMP/ro" && printf "x%.0s" $(seq 1 100) >"$TMP/ro/cpu.db-wal" && chmod 555 "$TMP/ro" &&
	test_status 2 unshare -U "$AMDAHL" --store "$TMP/ro/cpu.db" runs &&
	test_contains "write-ahead log" "$ERR" &&
	test_not_contains "not an amdahl store" "$ERR" &&
	chmod 755 "$TMP/ro" && rm -f "$TMP/ro/cpu.db-wal"
'

# ---- 3. trace times out of range: refused at parse time, sums checked ----
# trace_json FILE BASE EVENTS — a minimal Kineto trace
trace_json() {
	printf '{"schemaVersion": 1, "deviceProperties": [], "baseTimeNanoseconds": %s, "traceEvents": [%s]}\n' "$2" "$3" >"$TMP/$1"
}
# refused_trace FILE TEXT — ingest exits 2 with one line naming the file,
# a byte offset and TEXT; the store is unchanged
refused_trace() {
	local before
	before=$(store_digest "$TMP/cpu.db")
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" ingest "$TMP/$1"
	test_contains "$TMP/$1: byte " "$ERR"
	test_contains "$2" "$ERR"
	test_eq 1 "$(printf '%s\n' "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$TMP/cpu.db")"
}
EV='{"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1'
test_expect_success 'setup: traces with times near and past int64 nanoseconds' '
	trace_json ts-max.pt.trace.json 0 "$EV, \"ts\": 9223372036854775, \"dur\": 10}" &&
	trace_json ts-neg.pt.trace.json 0 "$EV, \"ts\": 5, \"dur\": 1}, $EV, \"ts\": -5, \"dur\": 1}" &&
	trace_json dur-neg.pt.trace.json 0 "$EV, \"ts\": 5, \"dur\": -3}" &&
	trace_json dur-huge.pt.trace.json 0 "$EV, \"ts\": 5, \"dur\": 9.2e15}" &&
	trace_json base-max.pt.trace.json 9223372036854775000 "$EV, \"ts\": 5, \"dur\": 1}" &&
	evs="" && for t in 1 2 3 4 5 6 7 8 9 10; do
		evs="$evs${evs:+, }{\"ph\": \"X\", \"name\": \"aten::mm\", \"cat\": \"cpu_op\", \"pid\": 1, \"tid\": $t, \"ts\": 1000, \"dur\": 1e15}"
	done &&
	trace_json sum-over.pt.trace.json 0 "$evs"
'
test_expect_success SQLITE3 'a ts near INT64_MAX microseconds: refused, naming event 1' '
	refused_trace ts-max.pt.trace.json "event 1 of traceEvents: \"ts\" is out of range"
'
test_expect_success SQLITE3 'a negative ts: refused, naming event 2' '
	refused_trace ts-neg.pt.trace.json "event 2 of traceEvents: \"ts\" is negative"
'
test_expect_success SQLITE3 'a negative dur: refused' '
	refused_trace dur-neg.pt.trace.json "\"dur\" is negative"
'
test_expect_success SQLITE3 'a dur of 9.2e15 microseconds: refused' '
	refused_trace dur-huge.pt.trace.json "\"dur\" is out of range"
'
test_expect_success SQLITE3 'baseTimeNanoseconds near INT64_MAX: refused' '
	refused_trace base-max.pt.trace.json "baseTimeNanoseconds is out of range"
'
test_expect_success SQLITE3 'ten durations of 1e15 microseconds each: their sum is refused, not wrapped' '
	refused_trace sum-over.pt.trace.json "durations add up past int64 nanoseconds"
'

# ---- 4. layout loops end: long and markup-laden names in tables and legends ----
LONG34=ddp_with_a_very_long_name_x34chars
MARKUP='<script>alert(1)</script>|`x`'
LONG300="fsdp_$(printf 'y%.0s' $(seq 1 300))"
# rename_strategies DIR DDP FSDP — a copy of the CPU sweep with its strategies renamed
rename_strategies() {
	rm -rf "$1" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$1" &&
	for f in $(grep -rlx ddp "$1" --include=strategy); do printf '%s' "$2" >"$f"; done &&
	for f in $(grep -rlx fsdp "$1" --include=strategy); do printf '%s' "$3" >"$f"; done
}
test_expect_success 'setup: the CPU sweep with a 34-character and a markup strategy, and with a 305-character one' '
	rename_strategies "$TMP/names1" "$LONG34" "$MARKUP" &&
	"$AMDAHL" --store "$TMP/names1.db" ingest -q "$TMP/names1" &&
	rename_strategies "$TMP/names2" "$LONG34" "$LONG300" &&
	"$AMDAHL" --store "$TMP/names2.db" ingest -q "$TMP/names2"
'
test_expect_success PDFINFO 'report build ends on a 34-character strategy name and writes a whole PDF' '
	test_status 0 timeout 120 "$AMDAHL" --store "$TMP/names1.db" report build -o "$TMP/rep-names1" &&
	test_true "the PDF reads" pdfinfo "$TMP/rep-names1/report.pdf"
'
test_expect_success PDFTOTEXT 'the 34-character name is printed whole in the tables' '
	pdftotext "$TMP/rep-names1/report.pdf" "$TMP/names1.txt" &&
	test_contains "$LONG34" "$(cat "$TMP/names1.txt")"
'
test_expect_success PDFTOTEXT 'a 305-character name ends, and is shortened with an ellipsis in tables and legends' '
	test_status 0 timeout 120 "$AMDAHL" --store "$TMP/names2.db" report build -o "$TMP/rep-names2" &&
	pdftotext "$TMP/rep-names2/report.pdf" "$TMP/names2.txt" &&
	test_contains "fsdp_yyyy" "$(cat "$TMP/names2.txt")" &&
	test_contains "…yyyy" "$(cat "$TMP/names2.txt")"
'

# ---- 10. output that keeps its format: UTF-8, Markdown, HTML, XML, error lines ----
test_lazy_prereq XMLLINT 'command -v xmllint'
# strict_json FILE — loads FILE as bytes (strict UTF-8); prints the strategies
strict_json() {
	"$PY" -c 'import json, sys
d = json.loads(open(sys.argv[1], "rb").read())
print(" ".join(s["strategy"] for s in d["sweeps"][0]["strategies"]))' "$1"
}
test_expect_success 'setup: the CPU sweep with a strategy holding invalid UTF-8 and markup' '
	rename_strategies "$TMP/bad8" ddp "$(printf "fsdp\377\376<b>")" &&
	"$AMDAHL" --store "$TMP/bad8.db" ingest -q "$TMP/bad8"
'
test_expect_success PYTHON 'stats --json is valid UTF-8: the invalid bytes become U+FFFD' '
	"$AMDAHL" --store "$TMP/bad8.db" stats --json >"$TMP/bad8.json" &&
	test_eq "ddp fsdp$(printf "\357\277\275\357\277\275")<b>" "$(strict_json "$TMP/bad8.json")"
'
test_expect_success PYTHON 'report.json is valid UTF-8' '
	test_status 0 "$AMDAHL" --store "$TMP/bad8.db" report build -o "$TMP/rep-bad8" &&
	"$PY" -c "import json, sys; json.loads(open(sys.argv[1], \"rb\").read())" "$TMP/rep-bad8/report.json"
'
test_expect_success XMLLINT 'gate --junit is well-formed XML with invalid UTF-8 in a name' '
	"$AMDAHL" --store "$TMP/bad8.db" gate --baseline cpu-strong-scaling:ddp \
		--candidate "cpu-strong-scaling:$(printf "fsdp\377\376<b>")" --junit "$TMP/bad8.xml" >/dev/null
	test_true "xmllint reads it" xmllint --noout "$TMP/bad8.xml"
'
test_expect_success 'summary.md escapes markup, table bars and backticks in names; summary.html escapes markup' '
	md=$(cat "$TMP/rep-names1/summary.md") &&
	test_contains "\\<script\\>alert(1)\\</script\\>\\|\\`x\\`" "$md" &&
	test_not_contains "<script>" "$md" &&
	test_contains "&lt;script&gt;" "$(cat "$TMP/rep-names1/summary.html")" &&
	test_not_contains "<script>" "$(cat "$TMP/rep-names1/summary.html")"
'
test_expect_success 'the gate Markdown escapes a markup strategy in its sentence and its table' '
	"$AMDAHL" --store "$TMP/names1.db" gate --baseline "cpu-strong-scaling:$LONG34" \
		--candidate "cpu-strong-scaling:$MARKUP" --markdown "$TMP/names1-gate.md" >/dev/null
	md=$(cat "$TMP/names1-gate.md") &&
	test_contains "\\<script\\>" "$md" &&
	test_not_contains "<script>" "$md" &&
	test_not_contains "|\`x\`" "$md"
'
# U+2028 and U+2029 end a line in Unicode (some terminals break there):
# terminal text shows them as \u2028 and \u2029, JSON and CSV keep them.
LSEP=$(printf "fsdp\342\200\250x\342\200\251y")
test_expect_success 'setup: the CPU sweep with a strategy holding U+2028 and U+2029' '
	rename_strategies "$TMP/lsep" ddp "$LSEP" &&
	"$AMDAHL" --store "$TMP/lsep.db" ingest -q "$TMP/lsep"
'
test_expect_success PYTHON 'runs and stats show U+2028/U+2029 escaped on the terminal, exact in JSON and CSV' '
	test_status 0 "$AMDAHL" --store "$TMP/lsep.db" runs &&
	test_contains "fsdp\\u2028x\\u2029y" "$OUT" &&
	test_not_contains "$LSEP" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$TMP/lsep.db" stats &&
	test_contains "strategy fsdp\\u2028x\\u2029y" "$OUT" &&
	test_not_contains "$LSEP" "$OUT" &&
	"$AMDAHL" --store "$TMP/lsep.db" stats --json >"$TMP/lsep.json" &&
	test_eq "ddp $LSEP" "$(strict_json "$TMP/lsep.json")" &&
	"$AMDAHL" --store "$TMP/lsep.db" gate --baseline cpu-strong-scaling:ddp \
		--candidate "cpu-strong-scaling:$LSEP" --format csv >"$TMP/lsep.csv"
	test_contains "$LSEP" "$(cat "$TMP/lsep.csv")"
'
# the store path named in the line is the SQLite file's (on ClickHouse
# the store is named by its URL); the next case is the same property for
# an input path, on both backends
test_expect_success SQLITE_STORE 'an error line shows a path'\''s terminal escape sequence escaped, on one line' '
	test_status 2 "$AMDAHL" --store "$TMP/$(printf "red\033[31mline\nbreak")/s.db" runs &&
	test_contains "red\\x1B[31mline" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_true "no ESC byte in the error" test "$(printf "%s" "$ERR" | tr -d "\033")" = "$ERR"
'
test_expect_success 'a bad input file: its path'\''s terminal escape sequence escaped, on one line, no store made' '
	d="$TMP/$(printf "red\033[31mline\nbreak")" &&
	mkdir -p "$d" && printf "{\"x\":\n" >"$d/t.pt.trace.json" &&
	test_status 2 "$AMDAHL" --store "$TMP/esc.db" ingest "$d/t.pt.trace.json" &&
	test_contains "red\\x1B[31mline break/t.pt.trace.json: byte 6: truncated JSON" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_true "no ESC byte in the error" test "$(printf "%s" "$ERR" | tr -d "\033")" = "$ERR" &&
	test_eq absent "$(store_digest "$TMP/esc.db")"
'

# ---- 9. silent truncation: a BLOB param with a NUL byte ----
test_expect_success PYTHON,SQLITE3 'an mlflow.db param stored as a BLOB with a NUL byte is refused, the store unchanged' '
	cp "$TMP/forms/mlflow.db" "$TMP/blob.db" &&
	sqlite3 "$TMP/blob.db" "UPDATE params SET value = CAST(X'\''6464700078'\'' AS BLOB) WHERE key='\''strategy'\'' AND run_uuid=(SELECT min(run_uuid) FROM runs)" &&
	before=$(store_digest "$TMP/cpu.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" ingest "$TMP/blob.db" &&
	test_contains "$TMP/blob.db: run " "$ERR" &&
	test_contains "param '\''strategy'\'' holds a NUL byte" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/cpu.db")"
'

# ---- 9. a gzip of whitespace says what it is ----
test_expect_success SQLITE3 'a gzipped trace of 70 MiB of whitespace: refused as whitespace, not as a long string' '
	{ printf "{\"schemaVersion\": 1, \"traceEvents\": ["; head -c 73400320 /dev/zero | tr "\0" " "; } |
		gzip -1 >"$TMP/blank.pt.trace.json.gz" &&
	refused_trace blank.pt.trace.json.gz "whitespace (no JSON value) longer than 1 MiB" &&
	test_not_contains "JSON string" "$ERR"
'

# ---- 13. determinism: equal stores give byte-identical output ----
DUP=ffff0000000000000000000000000001
test_expect_success 'setup: the CPU sweep plus a second launch of one run (same strategy, n, repeat, start)' '
	rm -rf "$TMP/det" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/det" &&
	src=$(ls "$TMP/det/4" | grep -v meta.yaml | head -1) &&
	cp -r "$TMP/det/4/$src" "$TMP/det/4/$DUP" && rm -rf "$TMP/det/4/$DUP/artifacts" &&
	sed -i "s/$src/$DUP/g" "$TMP/det/4/$DUP/meta.yaml" &&
	"$AMDAHL" --store "$TMP/det-a.db" ingest -q "$TMP/det/4" &&
	"$AMDAHL" --store "$TMP/det-b.db" ingest -q "$TMP/det/4/$DUP" &&
	"$AMDAHL" --store "$TMP/det-b.db" ingest -q "$TMP/det/4"
'
test_expect_success 'stats --json and runs are byte-identical whichever order the runs were ingested in' '
	"$AMDAHL" --store "$TMP/det-a.db" stats --json >"$TMP/det-a.json" &&
	"$AMDAHL" --store "$TMP/det-b.db" stats --json >"$TMP/det-b.json" &&
	test_true "stats --json identical" cmp -s "$TMP/det-a.json" "$TMP/det-b.json" &&
	test_eq "$("$AMDAHL" --store "$TMP/det-a.db" runs)" "$("$AMDAHL" --store "$TMP/det-b.db" runs)"
'

test_done
