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

test_done
