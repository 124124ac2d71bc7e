#!/bin/bash
# edges_signals.sh — an ingest of one large trace (parsed on worker
# threads: past 64 MiB) stopped by SIGINT, SIGTERM or SIGKILL at spread
# points: the store opens, passes PRAGMA integrity_check and holds the
# trace whole (every table's rows those of an ingest run to the end) or
# not at all; the same ingest then completes it to the dump of an
# uninterrupted one. crash.sh does the same for SIGKILL on many small
# MLflow units; this is the one-big-unit path and the signal handler's
# (amdahl removes its temporaries, then dies of the signal).
# SQLite only: every check reads the store file.
test_description='a large trace ingest stopped by a signal leaves the trace whole or absent'
test_run_alone=1 # stops at measured moments: nothing beside it (tests/lib/runner.sh)
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every check reads the SQLite store file; clickhouse.sh kills ingests on ClickHouse'

TRACE="$DATA/gpu-batch-sweep/mlruns/1/4f693a5b95314925a54889959cfdcab9/artifacts/traces/rank0.1795347653451003089.pt.trace.json.gz"
big="$TMP/big.pt.trace.json"
full_ms=""

# rows STORE: each table's row count, one "table n" line per table
rows() {
	sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type='table' AND name <> 'schema_version' ORDER BY name" |
	while read -r t; do echo "$t $(sqlite3 "$1" "SELECT count(*) FROM \"$t\"")"; done
}
# masked STORE: its dump without the ingest times (schema_version's and
# source.ingested_at)
masked() {
	sqlite3 "$1" .dump | grep -v "^INSERT INTO schema_version VALUES" |
		sed -E "s/^(INSERT INTO source VALUES\(.*),[0-9]+\);\$/\1,T);/"
}

test_expect_success PYTHON 'setup: a 12-copy trace of the H100 one, ingested to the end (timed)' '
	"$PY" "$AMDAHL_ROOT/bench/gen_big_trace.py" "$TRACE" "$big" 12 &&
	t0=$(date +%s%N) &&
	"$AMDAHL" --store "$TMP/clean.db" ingest -q "$big" 2>/dev/null &&
	full_ms=$((($(date +%s%N) - t0) / 1000000)) &&
	echo "ingest of $(($(stat -c %s "$big") >> 20)) MiB: $full_ms ms" &&
	rows "$TMP/clean.db" >"$TMP/clean.rows" &&
	test_eq 1 "$(q "$TMP/clean.db" "SELECT count(*) FROM trace")"
'

# Six stops, INT, TERM and KILL in turn, from 10% to 90% of the time of
# the timed ingest. The signals go to a process started with SIGINT at
# its default (a background job of a script starts with it ignored).
test_expect_success PYTHON,SQLITE3 'stopped at 6 points: integrity_check ok, the trace whole or absent, a rerun completes it' '
	mid=0
	for i in 1 2 3 4 5 6; do
		sig=$(echo INT TERM KILL | cut -d" " -f$(((i - 1) % 3 + 1)))
		delay=$(awk -v f="$full_ms" -v i="$i" "BEGIN{printf \"%.3f\", f * (0.1 + 0.16 * (i - 1)) / 1000}")
		s=$TMP/stop$i.db
		env --default-signal=INT "$AMDAHL" --store "$s" ingest -q "$big" >/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -"$sig" $pid 2>/dev/null
		wait $pid
		rc=$?
		n=absent
		if [ -e "$s" ]; then
			test_eq ok "$(sqlite3 "$s" "PRAGMA integrity_check")" || return 1
			n=$(sqlite3 "$s" "SELECT count(*) FROM trace" 2>/dev/null || echo 0)
		fi
		echo "SIG$sig after ${delay}s: exit $rc, traces: $n"
		case $rc in 130 | 143 | 137) mid=$((mid + 1)) ;; esac
		if [ "$n" = 1 ]; then
			test_eq "$(cat "$TMP/clean.rows")" "$(rows "$s")" || return 1
		elif [ "$n" = 0 ]; then
			test_eq "" "$(sqlite3 "$s" "SELECT count(*) FROM source; SELECT count(*) FROM trace_event; SELECT count(*) FROM frame" | grep -vx 0)" || return 1
		fi
		test_status 0 "$AMDAHL" --store "$s" ingest -q "$big" &&
		test_eq "$(masked "$TMP/clean.db" | sha256sum)" "$(masked "$s" | sha256sum)" || return 1
	done
	test_true "at least 4 of the 6 stops landed inside the ingest ($mid)" test "$mid" -ge 4
'

test_done
