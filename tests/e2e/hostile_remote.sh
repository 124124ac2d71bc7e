#!/bin/bash
# hostile_remote.sh — a ClickHouse server that stops answering (issue 40,
# item 5): with the server stopped by SIGSTOP, `stats` and `ingest` fail
# within the stall limit ($AMDAHL_CLICKHOUSE_STALL) with one line naming
# the server and the stage, instead of waiting forever. The server is
# this script's own (it is stopped), never the one tests/run.sh shares.
test_description='a stopped ClickHouse server: requests time out with the server and the stage'
test_native_backend=1 # talks to ClickHouse itself, in either mode
. "$(dirname "$0")/../test-lib.sh"

CH_SCRIPT="$AMDAHL_ROOT/tests/lib/clickhouse.sh"
test_lazy_prereq CLICKHOUSE '"$CH_SCRIPT" have'
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
CHDIR="$TMP/server"
if test_have_prereq CLICKHOUSE; then
	mkdir -p "$CHDIR" && PORT=$("$CH_SCRIPT" start "$CHDIR") ||
		echo "# clickhouse-server did not start" >&2
	trap 'kill -CONT "$(cat "$CHDIR/pid")" 2>/dev/null; "$CH_SCRIPT" stop "$CHDIR" >/dev/null 2>&1; test_cleanup' EXIT
else
	echo "# skipping: no clickhouse-server here (Debian package clickhouse-server)" >&2
fi
URL="clickhouse://amdahl@127.0.0.1:${PORT:-0}/hostile_$$"

test_expect_success CLICKHOUSE 'setup: a sweep ingested into the private server' '
	"$AMDAHL" --store "$URL" ingest -q "$DATA/gpu-batch-sweep" &&
	test_status 0 "$AMDAHL" --store "$URL" stats
'
test_expect_success CLICKHOUSE 'a stopped server: stats and ingest fail within the stall limit, naming server and stage' '
	kill -STOP "$(cat "$CHDIR/pid")" &&
	start=$(date +%s) &&
	test_status 2 env AMDAHL_CLICKHOUSE_STALL=2 timeout 60 "$AMDAHL" --store "$URL" stats &&
	stats_err=$ERR &&
	test_status 2 env AMDAHL_CLICKHOUSE_STALL=2 timeout 60 "$AMDAHL" --store "$URL" ingest "$DATA/cpu-strong-scaling/mlruns" &&
	took=$(( $(date +%s) - start )) &&
	kill -CONT "$(cat "$CHDIR/pid")" &&
	test_contains "amdahl stats: $URL: the server stopped answering: nothing for 2 s, waiting for the answer to \`" "$stats_err" &&
	test_eq 1 "$(printf "%s\\n" "$stats_err" | grep -c .)" &&
	test_contains "amdahl ingest: $URL: the server stopped answering: nothing for 2 s" "$ERR" &&
	test_eq 1 "$(printf "%s\\n" "$ERR" | grep -c "stopped answering")" &&
	test_true "both gave up within 50 s (took $took s)" [ "$took" -lt 50 ]
'
test_expect_success CLICKHOUSE 'the server answering again: the store is as it was; a bad limit is named' '
	test_status 0 "$AMDAHL" --store "$URL" runs &&
	test_not_contains "cpu-strong-scaling" "$OUT" &&
	test_status 2 env AMDAHL_CLICKHOUSE_STALL=-5 "$AMDAHL" --store "$URL" runs &&
	test_eq "amdahl runs: $URL: \$AMDAHL_CLICKHOUSE_STALL is not a number of seconds from 1 up" "$ERR"
'

test_done
