# concurrency.sh — two `amdahl ingest` processes on one store at once,
# starting on a store that does not exist yet: on different files and on
# the same files (also with -j 2 each). Both exit 0, nothing fails with
# "database is locked", every run directory is one source, and the
# points and params are exactly those of the files (none twice).
test_description='two ingests at once on one store: both succeed, every file stored once'
. "$(dirname "$0")/../test-lib.sh"

big=$(realpath "$TMP")/big
total="" points="" params="" before=""

# both NAME STORE ARGS_A -- ARGS_B: runs the two ingests at once; their
# exit codes go to $TMP/NAME.rc ("A B"), their stderr to $TMP/NAME.err
both() {
	local name=$1 s=$2 a=() b=() side=a x pa pb ra rb
	shift 2
	for x in "$@"; do
		if [ "$x" = -- ]; then side=b; continue; fi
		if [ $side = a ]; then a+=("$x"); else b+=("$x"); fi
	done
	"$AMDAHL" --store "$s" ingest -q "${a[@]}" >"$TMP/$name.a.out" 2>"$TMP/$name.a.err" &
	pa=$!
	"$AMDAHL" --store "$s" ingest -q "${b[@]}" >"$TMP/$name.b.out" 2>"$TMP/$name.b.err" &
	pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	echo "$ra $rb" >"$TMP/$name.rc"
	cat "$TMP/$name.a.err" "$TMP/$name.b.err" >"$TMP/$name.err"
}

# stored_once STORE: every file of $big is in STORE exactly once (the
# store read once: on ClickHouse, one copy amdahl pull makes of it)
stored_once() {
	local f
	f=$(store_file "$1") || return 1
	sq() { sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$f" "$1"; }
	test_eq "$total" "$(sq "SELECT count(*) FROM source WHERE kind='mlflow-run'")"  # one source per run directory
	test_eq "$(sq 'SELECT count(*) FROM source')" "$(sq 'SELECT count(DISTINCT path) FROM source')"  # sources unique by path
	test_eq "$total" "$(sq 'SELECT count(*) FROM run')"  # one run per run directory
	test_eq "$points" "$(sq 'SELECT count(*) FROM metric_point')"  # points = lines of the metric files
	test_eq "$params" "$(sq 'SELECT count(*) FROM param')"  # params = param files
	test_eq ok "$(sq 'PRAGMA integrity_check')"
}

# make_copies: 6 copies of the CPU sweep under $big/a and $big/b, each
# with a name and run ids of its own; sets total, points and params from the files
make_copies() {
	local k half m
	mkdir -p "$big/a" "$big/b" || return 1
	for k in 1 2 3 4 5 6; do
		half=a; [ "$k" -gt 3 ] && half=b
		cp -r "$DATA/cpu-strong-scaling/mlruns/4" "$big/$half/$k" &&
		sed -i "s/^name: .*/name: cpu-copy-$k/" "$big/$half/$k/meta.yaml" || return 1
		for m in "$big/$half/$k"/*/meta.yaml; do
			sed -i -E "s/^(run_id|run_uuid): (.*)/\1: \2-$k/" "$m" || return 1
		done
	done
	total=$(find "$big" -mindepth 4 -maxdepth 4 -name meta.yaml | wc -l) &&
	points=$(find "$big" -path '*/metrics/*' -type f -exec cat {} + | awk 'NF' | wc -l) &&
	params=$(find "$big" -path '*/params/*' -type f | wc -l)
}

test_expect_success 'setup: 6 copies of the CPU sweep, each with its own run ids' '
	make_copies
'

test_expect_success 'the copies hold 6 × 29 run directories' '
	test_eq 174 "$total"
'

# scenario NAME TITLE STORE ARGS_A -- ARGS_B: the cases of one pair of
# ingests (the bodies are run at once, so they see these variables)
scenario() {
	sc=$1 sc_title=$2 sc_store=$3
	shift 3
	sc_args=("$@")
	test_expect_success "setup: $sc_title: two ingests at once" '
		both "$sc" "$sc_store" "${sc_args[@]}"
	'
	test_expect_success "$sc_title: both exit 0, no error output (no 'database is locked')" '
		test_eq "0 0" "$(cat "$TMP/$sc.rc")"
		test_eq "" "$(cat "$TMP/$sc.err")"
	'
	test_expect_success SQLITE3 "$sc_title: each run directory one source and one run, points and params once, integrity_check ok" '
		stored_once "$sc_store"
	'
}

# the races again: three rounds of the same files, four of the bundled
# sweep below; under ASan/UBSan one and two (test-lib.sh SANITIZED)
rounds="1 2 3" dflt_rounds="1 2 3 4"
test_have_prereq SANITIZED && rounds=1 dflt_rounds="1 2"

scenario diff "different files" "$TMP/diff.db" "$big/a" -- "$big/b"
for round in $rounds; do
	scenario same$round "same files, round $round" "$TMP/same$round.db" "$big" -- "$big"
done
scenario samej "same files, -j 2 each" "$TMP/samej.db" -j 2 "$big" -- -j 2 "$big"
scenario overlap "overlapping files" "$TMP/overlap.db" "$big/a" "$big/b" -- "$big/b" "$big/a"

# and a third ingest of everything onto a filled store changes nothing
test_expect_success SQLITE3 'setup: the digest of the store of different files' '
	before=$(store_digest "$TMP/diff.db")
'
scenario again "again onto a full store" "$TMP/diff.db" "$big" -- "$big"
test_expect_success SQLITE3 'again onto a full store: store unchanged' '
	test_eq "$before" "$(store_digest "$TMP/diff.db")"
'

# ---- no empty sweep left behind (issue 20 item 13): a trace linked to a
# run not ingested yet makes a placeholder run in sweep "default"; when
# the run's own directory comes (later, or from the other process or
# worker) the run moves to its sweep and "default", now empty, goes.
CPU="$DATA/cpu-strong-scaling/mlruns"
empty_sweeps() { q "$1" "SELECT group_concat(name) FROM sweep WHERE NOT EXISTS(SELECT 1 FROM run WHERE sweep_id=sweep.id)"; }
test_expect_success SQLITE3 'a trace ingested before its run: the placeholder sweep "default" goes when the run comes' '
	T=$(find "$CPU" -name "*.pt.trace.json.gz" | sort | head -1)
	test_status 0 "$AMDAHL" --store "$TMP/order.db" ingest "$T"
	test_eq "default|1" "$(q "$TMP/order.db" "SELECT name, (SELECT count(*) FROM run WHERE sweep_id=sweep.id) FROM sweep")"
	test_status 0 "$AMDAHL" --store "$TMP/order.db" ingest "$CPU"
	test_eq "" "$(empty_sweeps "$TMP/order.db")"
	test_eq "cpu-strong-scaling" "$(q "$TMP/order.db" "SELECT group_concat(name) FROM sweep")"
'
test_expect_success SQLITE3 "two concurrent ingest -j 2 of the bundled sweep into a new store, $(echo $dflt_rounds | wc -w) times: no empty sweep" '
	for i in $dflt_rounds; do
		both "dflt$i" "$TMP/dflt$i.db" -j 2 "$CPU" -- -j 2 "$CPU"
		test_eq "0 0" "$(cat "$TMP/dflt$i.rc")"
		test_eq "cpu-strong-scaling|" "$(q "$TMP/dflt$i.db" "SELECT group_concat(name), (SELECT group_concat(name) FROM sweep WHERE NOT EXISTS(SELECT 1 FROM run WHERE sweep_id=sweep.id)) FROM sweep")"
	done
'

test_done
