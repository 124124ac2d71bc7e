#!/bin/bash
# ingest --events on the public 8-rank DLRM traces (NCCL AllReduce and
# SendRecv kernels): every GPU kernel, memcpy and memset counted against
# Python's json, "which rank starts each all-reduce last" answered by
# `amdahl sql` on SQLite and on a private clickhouse-server
# (tests/lib/clickhouse.sh) equal to tests/oracle/allreduce_last.py; no
# events without the option; a bad trace leaves the store as it was.
test_description='ingest --events: event rows and the last rank of each all-reduce, SQLite and ClickHouse'
. "$(dirname "$0")/../test-lib.sh"

DIR="$PUBLIC/traces/param-dlrm-8ranks"
DB="$TMP/ev.db"
CH_SCRIPT="$AMDAHL_ROOT/tests/lib/clickhouse.sh"
test_lazy_prereq CLICKHOUSE '"$CH_SCRIPT" have'
CHDIR="$TMP/server"
trap '"$CH_SCRIPT" stop "$CHDIR" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
url() { echo "clickhouse://amdahl@127.0.0.1:$(cat "$CHDIR/port")/$1"; }
ch() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$(cat "$CHDIR/port")/"; }

LAST_SQ="SELECT e.seq, e.rank, MAX(e.start_ns) AS last_start FROM trace_event e
 JOIN dict d ON d.id = e.name_id WHERE e.kind = 'collective' AND d.s LIKE 'ncclKernel_AllReduce%'
 GROUP BY e.seq ORDER BY e.seq"
LAST_CH="SELECT seq, argMax(rank, start_ns) AS rank, max(start_ns) AS last_start FROM trace_event
 WHERE src IN committed AND kind = 'collective'
 AND name_id IN (SELECT id FROM dict WHERE s LIKE 'ncclKernel_AllReduce%') GROUP BY seq ORDER BY seq"
# Python's count of a kind's events: kernels (not nccl*), memcpys, memsets, nccl kernels.
py_count() {
	"$PY" - "$1" "$DIR"/*.gz <<'PY'
import gzip, json, sys
kind, n = sys.argv[1], 0
for p in sys.argv[2:]:
    for e in json.load(gzip.open(p, "rt"))["traceEvents"]:
        if e.get("ph") != "X":
            continue
        c, name = e.get("cat"), e.get("name", "")
        n += {"kernel": c == "kernel" and not name.lower().startswith("nccl"),
              "memcpy": c == "gpu_memcpy", "memset": c == "gpu_memset",
              "nccl": c == "kernel" and name.lower().startswith("nccl")}[kind]
print(n)
PY
}

test_expect_success SHARED 'setup: ingest the 8 ranks with --events' '
	"$AMDAHL" --store "$DB" ingest -q --events "$DIR"
'
test_expect_success SHARED,PYTHON 'kernels, memcpys and memsets: as many rows as python counts events' '
	for k in kernel memcpy memset; do
		test_eq "$(py_count $k)" "$("$AMDAHL" --store "$DB" sql "SELECT count(*) FROM trace_event WHERE kind = '"'"'$k'"'"'" | tail -1)" || return 1
	done &&
	test_eq "$(py_count nccl)" "$("$AMDAHL" --store "$DB" sql "SELECT count(*) FROM trace_event WHERE kind = '"'"'collective'"'"' AND stream IS NOT NULL" | tail -1)"
'
test_expect_success SHARED,PYTHON 'memcpy bytes are the trace'"'"'s "bytes"' '
	want=$("$PY" -c "
import gzip, json, sys
print(sum(e[\"args\"][\"bytes\"] for p in sys.argv[1:] for e in json.load(gzip.open(p, \"rt\"))[\"traceEvents\"] if e.get(\"cat\") == \"gpu_memcpy\"))" "$DIR"/*.gz) &&
	test_eq "$want" "$("$AMDAHL" --store "$DB" sql "SELECT sum(bytes) FROM trace_event WHERE kind = '"'"'memcpy'"'"'" | tail -1)"
'
test_expect_success SHARED,PYTHON 'sql: which rank starts each all-reduce last, as python json says' '
	"$PY" "$AMDAHL_ROOT/tests/oracle/allreduce_last.py" ncclKernel_AllReduce "$DIR"/*.gz >"$TMP/want.tsv" &&
	test_true "the oracle found all-reduces" [ "$(wc -l <"$TMP/want.tsv")" -gt 2 ] &&
	"$AMDAHL" --store "$DB" sql "$LAST_SQ" >"$TMP/sq.tsv" &&
	test_true "SQLite: the oracle'"'"'s answer" cmp -s "$TMP/want.tsv" "$TMP/sq.tsv"
'
test_expect_success SHARED 'without --events no event rows' '
	"$AMDAHL" --store "$TMP/plain.db" ingest -q "$DIR" &&
	test_eq 0 "$("$AMDAHL" --store "$TMP/plain.db" sql "SELECT count(*) FROM trace_event" | tail -1)" &&
	test_eq 8 "$("$AMDAHL" --store "$TMP/plain.db" sql "SELECT count(*) FROM trace" | tail -1)"
'
test_expect_success SHARED,SQLITE3 'a truncated trace with --events: one line, the store unchanged' '
	zcat "$(ls "$DIR"/*.gz | head -1)" | head -c 30000 >"$TMP/cut.pt.trace.json" &&
	before=$(store_digest "$DB") &&
	test_status 2 "$AMDAHL" --store "$DB" ingest --events "$TMP/cut.pt.trace.json" &&
	test_contains "cut.pt.trace.json" "$ERR" &&
	test_eq "$before" "$(store_digest "$DB")"
'
test_expect_success SHARED,SQLITE3 'a changed file replaces its events' '
	mkdir -p "$TMP/one" && zcat "$(ls "$DIR"/*.gz | head -1)" >"$TMP/one/r0.pt.trace.json" &&
	"$AMDAHL" --store "$TMP/one.db" ingest -q --events "$TMP/one" &&
	n=$(q "$TMP/one.db" "SELECT count(*) FROM trace_event") &&
	sed -i "s/\"traceName\"/\"traceName2\"/" "$TMP/one/r0.pt.trace.json" &&
	"$AMDAHL" --store "$TMP/one.db" ingest -q --events "$TMP/one" &&
	test_eq "$n" "$(q "$TMP/one.db" "SELECT count(*) FROM trace_event")" &&
	test_eq 1 "$(q "$TMP/one.db" "SELECT count(DISTINCT source_id) FROM trace_event")"
'

if test_have_prereq CLICKHOUSE; then
	mkdir -p "$CHDIR" && "$CH_SCRIPT" start "$CHDIR" >/dev/null || echo "# clickhouse-server did not start" >&2
else
	echo "# skipping the ClickHouse cases: no clickhouse-server here (Debian package clickhouse-server)" >&2
fi

test_expect_success SHARED,CLICKHOUSE,PYTHON 'ClickHouse: the events stay on the server, the same answer as python' '
	"$AMDAHL" --store "$(url ev)" ingest -q --events "$DIR" &&
	test_eq "$(q "$DB" "SELECT count(*) FROM trace_event")" "$(ch "SELECT count() FROM ev.trace_event WHERE src IN (SELECT id FROM ev.source)")" &&
	"$AMDAHL" --store "$(url ev)" sql "$LAST_CH" >"$TMP/ch.tsv" &&
	test_true "ClickHouse: the oracle'"'"'s answer" cmp -s "$TMP/want.tsv" "$TMP/ch.tsv" &&
	"$AMDAHL" --store "$(url ev)" ingest --events "$DIR" >"$TMP/re.out" 2>&1 &&
	test_contains "0 added, 0 replaced, 8 unchanged" "$(cat "$TMP/re.out")" &&
	test_eq "$(q "$DB" "SELECT count(*) FROM trace_event")" "$(ch "SELECT count() FROM ev.trace_event")"
'

test_done
