# file_identity.sh — a source's identity is its place and its content
# (issue 40 items 3/4): the same trace bytes under two runs' artifacts
# give each run its trace; the same run folder reached at another place
# (a copied or moved sweep) adds nothing; a file changed in place
# replaces what it gave; four concurrent ingests of overlapping subsets
# give the facts of one ingest of the whole. Runs on either backend
# (AMDAHL_TEST_BACKEND=clickhouse: tests/test-lib.sh).
test_description='file identity: place and content, copies, moves, changes in place, concurrency'
. "$(dirname "$0")/../test-lib.sh"

S=$TMP/s        # the CPU sweep, some runs sharing trace bytes
M=mlruns/4
R1=261297f6c3c643a98154776f864bae3d # ddp n=1, one trace
R2=282d71b5f16744c69d76d15137741ccb # ddp n=1, no trace of its own
N2A=352060eb92854d39b18812809e22c265 # ddp n=2, two traces
N2B=4133361891e5456e88f478fab3e64aa4 # ddp n=2, none of its own
N2C=35b98d95cb2449f9a3df172d0213ebd2 # ddp n=2, none of its own
before=""

# per run with trace files: "run count", from the files (find) ...
files_per_run() {
	(cd "$1/$M" && find . -path "*/artifacts/*" -name "*.pt.trace.json*" | cut -d/ -f2 |
		sort | uniq -c | awk "{ print \$2, \$1 }")
}
# ... and from the store (sqlite3 on the store, or on ClickHouse its pulled copy)
traces_per_run() {
	q "$1" "SELECT r.ext_id, count(*) FROM trace t JOIN run r ON r.id = t.run_id
		GROUP BY r.ext_id ORDER BY r.ext_id" | tr "|" " "
}
# share DIR FROM TO — run TO's artifacts get copies of run FROM's traces
share() {
	mkdir -p "$1/$M/$3/artifacts/traces" &&
	cp "$1/$M/$2"/artifacts/traces/* "$1/$M/$3/artifacts/traces/"
}

test_expect_success 'setup: the CPU sweep, R2 holding R1 trace bytes, two n=2 runs the bytes of a third' '
	cp -r "$DATA/cpu-strong-scaling" "$S" &&
	share "$S" "$R1" "$R2" && share "$S" "$N2A" "$N2B" && share "$S" "$N2A" "$N2C" &&
	test_eq 2 "$(ls "$S/$M/$N2C/artifacts/traces" | wc -l)"
'

test_expect_success SQLITE3 'the same trace bytes under two runs: each run gets its traces (item 3)' '
	test_status 0 "$AMDAHL" --store "$TMP/a.db" ingest "$S" &&
	test_contains "64 added" "$OUT" &&
	test_eq "$(files_per_run "$S")" "$(traces_per_run "$TMP/a.db")" &&
	test_contains "$R2" "$(traces_per_run "$TMP/a.db")"
'

test_expect_success 'runs --sources lists each copy under its own run' '
	"$AMDAHL" --store "$TMP/a.db" runs --sources >"$TMP/src" &&
	test_eq 1 "$(grep -c "torch-trace.*/$R2/artifacts/" "$TMP/src")" &&
	test_eq 2 "$(grep -c "torch-trace.*/$N2C/artifacts/" "$TMP/src")"
'

test_expect_success SQLITE3 'a copy of the sweep at another place (the same runs) adds nothing' '
	"$AMDAHL" --store "$TMP/a.db" stats --json >"$TMP/stats.before" &&
	before=$(store_digest "$TMP/a.db") &&
	cp -r "$S" "$TMP/copy" &&
	test_status 0 "$AMDAHL" --store "$TMP/a.db" ingest "$TMP/copy" &&
	test_contains "0 added, 0 replaced, 64 unchanged" "$OUT" &&
	"$AMDAHL" --store "$TMP/a.db" stats --json >"$TMP/stats.after" &&
	test_true "stats --json unchanged" cmp -s "$TMP/stats.before" "$TMP/stats.after" &&
	test_eq "$before" "$(store_digest "$TMP/a.db")"
'

test_expect_success SQLITE3 'the sweep moved (its old place gone): nothing added, the same statistics' '
	rm -rf "$TMP/copy" && mv "$S" "$TMP/moved" &&
	test_status 0 "$AMDAHL" --store "$TMP/a.db" ingest "$TMP/moved" &&
	mv "$TMP/moved" "$S" &&
	test_contains "0 added, 0 replaced, 64 unchanged" "$OUT" &&
	test_eq "$before" "$(store_digest "$TMP/a.db")"
'

test_expect_success SQLITE3 'a trace changed in place replaces what it gave; the run it was copied from keeps its own' '
	t=$(ls "$S/$M/$R2"/artifacts/traces/*) &&
	zcat "$t" | gzip -1 >"$t.new" && mv "$t.new" "$t" &&
	test_status 0 "$AMDAHL" --store "$TMP/a.db" ingest "$S" &&
	test_contains "0 added, 1 replaced, 63 unchanged" "$OUT" &&
	test_eq "$(files_per_run "$S")" "$(traces_per_run "$TMP/a.db")" &&
	test_eq 1 "$(q "$TMP/a.db" "SELECT count(*) FROM source WHERE path LIKE \"%/$R2/artifacts/%\"")"
'

# the run folders, in four overlapping subsets
subset() { ls -d "$S/$M"/*/ | sed -n "$1p" | sed "s|/$||"; }
test_expect_success SQLITE3 'four concurrent ingests of overlapping subsets give the facts of one ingest (item 4)' '
	"$AMDAHL" --store "$TMP/one.db" ingest -q "$S" &&
	mapfile -t a < <(subset 1,12) && mapfile -t b < <(subset 6,20) &&
	mapfile -t c < <(subset 15,29) && mapfile -t d < <(subset 1,3; subset 10,14; subset 25,29) ||
		return 1
	"$AMDAHL" --store "$TMP/four.db" ingest -q "${a[@]}" & p1=$!
	"$AMDAHL" --store "$TMP/four.db" ingest -q "${b[@]}" & p2=$!
	"$AMDAHL" --store "$TMP/four.db" ingest -q "${c[@]}" & p3=$!
	"$AMDAHL" --store "$TMP/four.db" ingest -q "${d[@]}" & p4=$!
	wait $p1 && wait $p2 && wait $p3 && wait $p4 &&
	for k in "runs" "runs --sources" "stats --json"; do
		"$AMDAHL" --store "$TMP/one.db" $k >"$TMP/one.k" &&
		"$AMDAHL" --store "$TMP/four.db" $k >"$TMP/four.k" &&
		test_true "$k: the same" cmp -s "$TMP/one.k" "$TMP/four.k" || {
			diff "$TMP/one.k" "$TMP/four.k" | head -5 >&2; return 1; }
	done &&
	test_eq "$(files_per_run "$S")" "$(traces_per_run "$TMP/four.db")"
'

test_done
