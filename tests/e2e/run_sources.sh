#!/bin/bash
# run_sources.sh — provenance at sweep scale (issue 19): a report whose
# sweep has more than 200 source files lists one row per run in Appendix
# C (files, bytes, kinds, a SHA-256 over the files' SHA-256s in path
# order) and names `amdahl runs --sources`, which lists every file of the
# chosen runs (run, path, kind, bytes, sha256; the orphans after them
# when no sweep is named). Sweeps from bench/gen_sweep.py (copies of the
# real n=8 DDP run of testdata/cpu-strong-scaling): 20 runs x 10 ranks
# (220 files) and 20 x 9 (200 files: the per-file table stays). Both
# checked by tests/oracle/run_sources_oracle.py against the store read
# with Python's sqlite3 and the trace files re-hashed with hashlib.
test_description='report appendix per run and runs --sources'
. "$(dirname "$0")/../test-lib.sh"

SW=cpu-strong-scaling
ORACLE="$AMDAHL_ROOT/tests/oracle/run_sources_oracle.py"

test_expect_success PYTHON 'setup: 20 runs x 10 ranks (220 files) and 20 x 9 (200 files) ingested' '
	(cd "$AMDAHL_ROOT" && "$PY" bench/gen_sweep.py "$TMP/big" 20 10 >/dev/null &&
		"$PY" bench/gen_sweep.py "$TMP/edge" 20 9 >/dev/null) &&
	test_status 0 "$AMDAHL" --store "$TMP/big.db" ingest -q "$TMP/big/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/edge.db" ingest -q "$TMP/edge/mlruns"
'
test_expect_success PDFTOTEXT,PYTHON '220 files: Appendix C has one row per run, each checked against the store and the files' '
	test_status 0 "$AMDAHL" --store "$TMP/big.db" report build -o "$TMP/r" &&
	pdftotext -layout "$TMP/r/report.pdf" "$TMP/r.txt" &&
	test_status 0 "$PY" "$ORACLE" "$(store_file "$TMP/big.db")" $SW pdf "$TMP/r.txt" &&
	test_eq "checked 20 runs, 220 files" "$OUT" &&
	txt=$(tr -s " \n" " " <"$TMP/r.txt") &&
	test_contains "read 220 source files, more than 200, so the table lists one row per run" "$txt" &&
	test_contains "the hex digests in path order, each followed by a newline" "$txt" &&
	test_contains "amdahl runs --sources --sweep $SW" "$txt"
'
test_expect_success PYTHON 'runs --sources --sweep --json: every file of every run, as the store and the files say' '
	test_status 0 "$AMDAHL" --store "$TMP/big.db" runs --sources --sweep $SW --json &&
	cp "$TMP/out" "$TMP/rs.json" &&
	test_status 0 "$PY" "$ORACLE" "$(store_file "$TMP/big.db")" $SW json "$TMP/rs.json" &&
	test_eq "checked 20 runs, 220 files" "$OUT"
'
test_expect_success PDFTOTEXT,PYTHON '200 files: the per-file table stays (path, kind, bytes, sha256 of each file)' '
	test_status 0 "$AMDAHL" --store "$TMP/edge.db" report build -o "$TMP/e" &&
	pdftotext -layout "$TMP/e/report.pdf" "$TMP/e.txt" &&
	test_not_contains "one row per run" "$(tr -s " \n" " " <"$TMP/e.txt")" &&
	test_eq 200 "$(sed -n "/Appendix C: sources/,\$p" "$TMP/e.txt" | grep -cE "[0-9a-f]{64}\s*$")" &&
	test_eq 200 "$(q "$TMP/edge.db" "SELECT count(*) FROM source")"
'
test_expect_success SQLITE3 'runs --sources: the text table has one line per file' '
	test_status 0 "$AMDAHL" --store "$TMP/big.db" runs --sources --sweep $SW &&
	test_eq 220 "$(grep -cE "^[0-9a-f]{32} " "$TMP/out")"
'
test_expect_success PYTHON 'no --sweep: the runs'\'' files, then a trace linked to no run with run null' '
	mkdir "$TMP/lone" &&
	cp "$(find "$AMDAHL_ROOT/testdata/cpu-strong-scaling/mlruns" -name "rank0.*.pt.trace.json.gz" | sort | head -1)" "$TMP/lone/" &&
	test_status 0 "$AMDAHL" --store "$TMP/big.db" ingest -q "$TMP/lone" &&
	test_status 0 "$AMDAHL" --store "$TMP/big.db" runs --sources --json &&
	cp "$TMP/out" "$TMP/all.json" &&
	test_eq 221 "$(json_get "$TMP/all.json" "len(d[\"sources\"])")" &&
	test_eq "None torch-trace $TMP/lone" \
		"$(json_get "$TMP/all.json" "\" \".join(map(str, (d[\"sources\"][-1][\"run\"], d[\"sources\"][-1][\"kind\"], d[\"sources\"][-1][\"path\"].rsplit(\"/\", 1)[0])))")" &&
	test_eq "$(json_get "$TMP/rs.json" "d[\"sources\"]")" "$(json_get "$TMP/all.json" "d[\"sources\"][:-1]")"
'
test_expect_success 'bad use: an unknown sweep and --orphans with --sources fail with one line, the store unchanged' '
	before=$(store_digest "$TMP/big.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/big.db" runs --sources --sweep nosuch &&
	test_eq "amdahl runs: no source files for '\''nosuch'\'' in $(store_name "$TMP/big.db")" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/big.db" runs --sources --orphans &&
	test_eq "amdahl runs: --orphans and --sources: give one" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/big.db")"
'
test_done
