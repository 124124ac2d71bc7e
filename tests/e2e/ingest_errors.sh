# ingest_errors.sh — bad inputs: each gives one error line naming the
# file (and the line where there is one), exit 2, and leaves the store
# as it was — or, when there was no store, no store at all.
test_description='bad inputs: one error line naming the place, exit 2, store unchanged or none'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/ingest.sh"

S=$TMP/store.db
bad_path="" bad_needle="" run="" mf="" n="" good=""

# bad_in_store NEEDLE PATH: ingesting PATH into $S exits 2 with one error
# line containing NEEDLE and leaves $S as it was
bad_in_store() {
	local before
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$2"
	test_eq 1 "$(error_lines)"
	test_contains "$1" "$ERR"
	test_eq "$before" "$(store_digest "$S")"
}
# bad_in_new_store PATH: ingesting PATH into a new store exits 2 and
# leaves no store (nor -wal, -shm; on ClickHouse, no tables) behind
bad_in_new_store() {
	local s
	rm -f "$TMP/new.db"
	test_status 2 "$AMDAHL" --store "$TMP/new.db" ingest "$1"
	test_eq absent "$(store_digest "$TMP/new.db")"
	test_eq "absent absent absent" \
		"$(for s in "" -wal -shm; do [ -e "$TMP/new.db$s" ] && echo present || echo absent; done | xargs)"
}
# bad DESC: the two cases of a bad input ($bad_path, $bad_needle, made by
# the set-up case just before)
bad() {
	test_expect_success SQLITE3 "$1: exit 2, one error line naming the place, store unchanged" '
		bad_in_store "$bad_needle" "$bad_path"
	'
	test_expect_success "$1: exit 2 on a new store, no store left behind" '
		bad_in_new_store "$bad_path"
	'
}

test_expect_success 'setup: a good sweep first (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$DATA/dataloader-workers/mlruns"
'

test_expect_success 'setup: truncated metrics line' '
	run=$(fresh_run truncated) &&
	mf=$(find "$run/metrics" -type f | sort | head -1) &&
	n=$(($(awk NF "$mf" | wc -l) + 1)) &&
	printf "%s" "$(head -1 "$mf" | cut -c1-9)" >>"$mf" && # a last line cut short
	bad_path=$run bad_needle="$mf: line $n: expected '\''timestamp value step'\'', got 1 field"
'
bad "truncated metrics line"

test_expect_success 'setup: non-numeric value' '
	run=$(fresh_run nonnumeric) &&
	mf=$(find "$run/metrics" -type f | sort | head -1) &&
	sed -i "2s/^\([0-9]*\) [^ ]*/\1 fast/" "$mf" &&
	bad_path=$run bad_needle="$mf: line 2: value '\''fast'\'' is not a number"
'
bad "non-numeric value"

test_expect_success 'setup: broken meta.yaml' '
	run=$(fresh_run yaml) &&
	printf "artifact_uri: x\nrun_id: [unclosed\nstatus: 3\n" >"$run/meta.yaml" &&
	bad_path=$run bad_needle="$run/meta.yaml: line 3 column"
'
bad "broken meta.yaml"

test_expect_success 'setup: meta.yaml without a run id' '
	run=$(fresh_run nometa) &&
	printf "status: 3\nrun_name: x\n" >"$run/meta.yaml" &&
	bad_path=$run bad_needle="$run/meta.yaml: line 1: no run_id"
'
bad "meta.yaml without a run id"

test_expect_success 'setup: missing path' '
	bad_path=$TMP/no-such-dir bad_needle="$TMP/no-such-dir: No such file or directory"
'
bad "missing path"

test_expect_success 'setup: dangling symlink among the metric files' '
	run=$(fresh_run dangling) &&
	ln -s "$TMP/nowhere" "$run/metrics/ghost" &&
	bad_path=$run bad_needle="$run/metrics/ghost: No such file or directory"
'
bad "dangling symlink among the metric files"

test_expect_success 'setup: a FIFO among the params' '
	run=$(fresh_run fifo) &&
	mkfifo "$run/params/pipe" &&
	bad_path=$run bad_needle="$run/params/pipe: not a regular file"
'
bad "a FIFO among the params (must not hang)"

test_expect_success 'setup: a FIFO named on the command line' '
	mkfifo "$TMP/named.fifo" &&
	bad_path=$TMP/named.fifo bad_needle="$TMP/named.fifo: not a regular file or directory"
'
bad "a FIFO named on the command line"

test_expect_success 'setup: a mode 000 param file' '
	run=$(fresh_run unreadable) &&
	chmod 000 "$run/params/$(ls "$run/params" | head -1)" &&
	bad_path=$run bad_needle="$run/params/$(ls "$run/params" | head -1): Permission denied"
'
if [ "$(id -u)" = 0 ]; then
	# root reads a mode-000 file: the ingest must then simply succeed
	echo "# running as root: mode 000 does not stop reads; the dangling symlink and FIFO cases above are the unreadable entries"
	test_expect_success 'mode 000 param as root: readable, ingests (exit 0)' '
		test_status 0 "$AMDAHL" --store "$TMP/root.db" ingest "$bad_path"
	'
else
	bad "unreadable param file"
fi

test_expect_success 'setup: a file that is no format' '
	printf "just some notes\n" >"$TMP/notes.txt" &&
	bad_path=$TMP/notes.txt bad_needle="$TMP/notes.txt: not a format amdahl reads"
'
bad "a file that is no format"

# a good run next to a bad one: the good one is kept, the bad one is not
test_expect_success 'setup: a good run next to a bad one ingests with exit 2' '
	mkdir -p "$TMP/mixed/mlruns/4" &&
	cp -r "$(fresh_run mixedbad)" "$TMP/mixed/mlruns/4/" &&
	sed -i "2s/^\([0-9]*\) [^ ]*/\1 fast/" "$(find "$TMP/mixed/mlruns/4/$FRESH_RID/metrics" -type f | sort | head -1)" &&
	good=$(ls -d "$DATA"/cpu-strong-scaling/mlruns/4/*/ | sed -n 2p) && good=${good%/} &&
	cp -r "$good" "$TMP/mixed/mlruns/4/" &&
	test_status 2 "$AMDAHL" --store "$TMP/mixed.db" ingest "$TMP/mixed/mlruns"
'
test_expect_success SQLITE3 'mixed: the good run is stored, the bad one is not' '
	test_eq "$(basename "$good")" "$(q "$TMP/mixed.db" "SELECT ext_id FROM run")"
'
test_expect_success SQLITE3 'mixed: no points of the bad run' '
	test_eq "$(find "$good/metrics" -type f -exec cat {} + | awk NF | wc -l)" \
		"$(q "$TMP/mixed.db" "SELECT count(*) FROM metric_point")"
'

# a --store that is not a store: an error naming it, and the file untouched
test_expect_success SQLITE_STORE 'a store that is not SQLite: exit 2, named, left as it was (a file at the store path)' '
	printf "my notes\n" >"$TMP/notes.db" &&
	test_status 2 "$AMDAHL" --store "$TMP/notes.db" ingest "$DATA/dataloader-workers/mlruns"
	test_contains "$TMP/notes.db: file is not a database" "$ERR"
	test_eq "my notes" "$(cat "$TMP/notes.db")"
'
test_expect_success SQLITE_STORE 'a store in a missing directory: exit 2, named (a file path)' '
	test_status 2 "$AMDAHL" --store "$TMP/nodir/s.db" ingest "$DATA/dataloader-workers/mlruns"
	test_contains "$TMP/nodir/s.db" "$ERR"
'

test_done
