#!/bin/bash
# hostile_store.sh — round three of hostile and careless use (issue 40):
# the store file a copy takes, pull --to over someone else's file, a
# file's identity (its place and its content), a FIFO as a store, and
# the fuzz findings replayed as cases of the suite.
test_description='hostile and careless use, round three: the store and its files'
. "$(dirname "$0")/../test-lib.sh"

# ---- 1. a reader open during an ingest: the .db alone is the whole store ----
# reader STORE SQL SECONDS — a read-only SQLite connection that keeps
# STORE open for SECONDS after running SQL (as another amdahl process
# reading would), in the background
reader() {
	(sleep "$3" | sqlite3 -readonly -cmd "$2" "$1" >/dev/null) &
	sleep 1
}
test_expect_success SQLITE3,SQLITE_STORE 'an ingest while another process keeps the store open leaves a whole .db' '
	"$AMDAHL" --store "$TMP/wal.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	reader "$TMP/wal.db" "SELECT count(*) FROM sqlite_master" 4 &&
	test_status 0 "$AMDAHL" --store "$TMP/wal.db" ingest -q "$DATA/gpu-batch-sweep" &&
	cp "$TMP/wal.db" "$TMP/wal-copy.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal-copy.db" runs &&
	test_contains "sweep gpu-batch-sweep" "$OUT" &&
	wait
'
test_expect_success SQLITE3,SQLITE_STORE 'a reader in the middle of a read: the ingest says what stayed in -wal and how to finish' '
	"$AMDAHL" --store "$TMP/wal2.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	reader "$TMP/wal2.db" "BEGIN; SELECT count(*) FROM sqlite_master;" 9 &&
	test_status 0 "$AMDAHL" --store "$TMP/wal2.db" ingest -q "$DATA/gpu-batch-sweep" &&
	test_contains "amdahl ingest: warning: $TMP/wal2.db: " "$ERR" &&
	test_contains "pages stay in $TMP/wal2.db-wal only" "$ERR" &&
	test_contains "PRAGMA wal_checkpoint" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	wait &&
	sqlite3 "$TMP/wal2.db" "PRAGMA wal_checkpoint" >/dev/null &&
	cp "$TMP/wal2.db" "$TMP/wal2-copy.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal2-copy.db" runs &&
	test_contains "sweep gpu-batch-sweep" "$OUT"
'

# ---- 2. pull --to replaces only a store, a new file or an empty one ----
# The target is checked before the server is asked: no server is needed
# (port 9 answers nothing), and a store the check lets through gets as
# far as connecting.
NOSERVER="clickhouse://amdahl@127.0.0.1:9/none"
file_digest() { sha256sum "$1" | cut -c1-64; }
test_expect_success PYTHON,SQLITE_STORE 'pull --to an MLflow tracking database is refused and leaves it byte for byte' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$DATA/cpu-strong-scaling/mlruns" "$TMP/forms" >/dev/null &&
	before=$(file_digest "$TMP/forms/mlflow.db") &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/forms/mlflow.db" &&
	test_eq "amdahl pull: $TMP/forms/mlflow.db: an MLflow tracking database, not an amdahl store; not replaced (name a new file, an empty one or a store)" "$ERR" &&
	test_eq "$before" "$(file_digest "$TMP/forms/mlflow.db")"
'
test_expect_success SQLITE3,SQLITE_STORE 'pull --to a text file or another SQLite database is refused; a store or an empty file is not' '
	printf "notes\n" >"$TMP/notes.txt" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/notes.txt" &&
	test_eq "amdahl pull: $TMP/notes.txt: not an SQLite file, so not an amdahl store; not replaced (name a new file, an empty one or a store)" "$ERR" &&
	test_eq notes "$(cat "$TMP/notes.txt")" &&
	sqlite3 "$TMP/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1)" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/other.db" &&
	test_contains "an SQLite database without amdahl" "$ERR" &&
	test_eq 1 "$(sqlite3 "$TMP/other.db" "SELECT x FROM t")" &&
	mkfifo "$TMP/pullfifo" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/pullfifo" &&
	test_contains "not a regular file; not replaced" "$ERR" &&
	: >"$TMP/empty.db" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/empty.db" &&
	test_not_contains "not replaced" "$ERR" &&
	"$AMDAHL" --store "$TMP/st.db" ingest -q "$DATA/gpu-batch-sweep" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/st.db" &&
	test_not_contains "not replaced" "$ERR"
'

# ---- 6. a FIFO named as the store: refused at once, not waited on ----
test_expect_success SQLITE_STORE '--store FIFO: every command says what it is instead of blocking' '
	mkfifo "$TMP/storefifo" &&
	for c in runs stats "ingest $DATA/gpu-batch-sweep"; do
		test_status 2 timeout 10 "$AMDAHL" --store "$TMP/storefifo" $c &&
		test_eq "amdahl ${c%% *}: $TMP/storefifo: a FIFO, not a store; a store is a regular file (name a new file, or a store)" "$ERR" || return 1
	done &&
	test_true "still a FIFO" test -p "$TMP/storefifo"
'

test_done
